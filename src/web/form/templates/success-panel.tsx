import type { TFunction } from 'i18next';
import { useEffect, useRef } from 'react';

interface SuccessPanelProps {
  email: string;
  t: TFunction;
  /** Move focus to the heading (after a submit, not after a reload). */
  takeFocus: boolean;
}

export function SuccessPanel({ email, t, takeFocus }: SuccessPanelProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (takeFocus) heading.current?.focus();
  }, [takeFocus]);
  return (
    <section className="success-panel" aria-labelledby="success-title">
      <svg className="success-panel__icon" viewBox="0 0 24 24" width="48" height="48" aria-hidden="true" focusable="false">
        <circle cx="12" cy="12" r="11" fill="currentColor" />
        <path d="M6.5 12.5l3.5 3.5 7.5-8" fill="none" stroke="#ffffff" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      <h2 className="success-panel__title" id="success-title" ref={heading} tabIndex={-1}>
        {t('success.title')}
      </h2>
      <p>{t('success.received')}</p>
      {email && (
        <p>
          {t('success.confirmationSent')} <strong>{email}</strong>
        </p>
      )}
    </section>
  );
}
