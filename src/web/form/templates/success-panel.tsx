import type { Translate } from '../../../core/texts';
import { useEffect, useRef } from 'react';

interface SuccessPanelProps {
  email: string;
  /** The request's reference; empty when unknown (nothing is shown for it). */
  reference: string;
  t: Translate;
  /** Move focus to the heading (after a submit, not after a reload). */
  takeFocus: boolean;
  /** The brand page asked for a new request (core/brands.ts: newRequestPath). */
  newRequestHref: string;
  /** Before the link is followed, with scripts: the tab forgets the request sent. */
  onNewRequest?: () => void;
}

/**
 * The confirmation (spec §4, §8). The reference comes right under the
 * heading and describes it, so a screen reader says it with the heading that
 * takes the focus; it is plain text (spaced out by CSS only), selected whole
 * by one click or tap to copy, and never translated by the browser. A reload
 * shows it again; its link is the way to a new, empty form: a plain link, so
 * it works without scripts too (the server forgets the request and redirects).
 */
export function SuccessPanel({ email, reference, t, takeFocus, newRequestHref, onNewRequest }: SuccessPanelProps) {
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
      <h2
        className="success-panel__title"
        id="success-title"
        ref={heading}
        tabIndex={-1}
        aria-describedby={reference ? 'success-reference' : undefined}
      >
        {t('success.title')}
      </h2>
      {reference && (
        <p className="success-panel__reference" id="success-reference">
          <span className="success-panel__reference-label">{t('success.reference')}</span>{' '}
          <strong className="success-panel__reference-value" translate="no">
            {reference}
          </strong>
        </p>
      )}
      <p>{t('success.received')}</p>
      {email && (
        <p>
          {t('success.confirmationSent')} <strong>{email}</strong>
        </p>
      )}
      <p className="success-panel__new">
        <a href={newRequestHref} onClick={onNewRequest}>
          {t('success.newRequest')}
        </a>
      </p>
    </section>
  );
}
