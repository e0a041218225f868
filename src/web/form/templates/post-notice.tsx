import type { Translate } from '../../../core/texts';
import type { FormNotice } from '../../../core/form-seed';

interface PostNoticeProps {
  notice: FormNotice;
  t: Translate;
}

/**
 * Why a form posted without scripts came back (core/form-seed.ts): first in
 * the form, so it is the first thing read after the page's heading; the page
 * title says there is a problem too (entry-server.tsx), since without scripts
 * nothing can move the focus here.
 */
export function PostNotice({ notice, t }: PostNoticeProps) {
  return (
    <section className="notice notice--error post-notice" role="alert" aria-labelledby="post-notice-title">
      <h2 className="post-notice__title" id="post-notice-title">
        {t(`notice.${notice.kind}.title`)}
      </h2>
      <p className="post-notice__body">{t(`notice.${notice.kind}.body`, { reference: notice.reference })}</p>
    </section>
  );
}
