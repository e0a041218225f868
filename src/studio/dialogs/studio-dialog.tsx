import { useEffect, useRef, type FormEvent, type ReactNode } from 'react';
import { useStudioT } from '../studio-texts';

interface Props {
  title: string;
  /** What the dialog's main button says. */
  action: string;
  onSubmit(): void;
  onClose(): void;
  children: ReactNode;
}

/**
 * A modal dialog (the browser's own: focus stays inside, Escape closes it, focus returns to the
 * button that opened it) holding one small form.
 */
export function StudioDialog({ title, action, onSubmit, onClose, children }: Props) {
  const t = useStudioT();
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current!;
    const opener = document.activeElement as HTMLElement | null;
    element.showModal();
    return () => {
      element.close();
      opener?.focus();
    };
  }, []);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <dialog ref={dialog} className="studio-dialog" aria-labelledby="dialog-title" onCancel={(e) => (e.preventDefault(), onClose())}>
      <form onSubmit={submit} noValidate>
        <h2 id="dialog-title">{title}</h2>
        {children}
        <div className="studio-dialog__actions">
          <button type="submit" className="studio-button studio-button--primary">
            {action}
          </button>
          <button type="button" className="studio-button" onClick={onClose}>
            {t('dialog.cancel')}
          </button>
        </div>
      </form>
    </dialog>
  );
}
