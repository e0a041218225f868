import { useEffect, useRef } from 'react';
import { fieldId } from '../form-context';

/** Moves focus once the requested target has rendered: the error notice ('notice') or a field by name. */
export function useFocusRequest(request: { target: string } | null) {
  const noticeRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!request) return;
    if (request.target === 'notice') noticeRef.current?.focus();
    else document.getElementById(fieldId(request.target))?.focus();
  }, [request]);
  return noticeRef;
}
