import { useDocumentHead } from '../app/use-document-head';
import { LocaleContext, i18n } from '../i18n';

/** Unknown paths carry no locale, so the 404 page speaks the default, Dutch. */
export function NotFoundPage() {
  const t = i18n.getFixedT('nl');
  useDocumentHead(t('notFound.documentTitle'), 'nl');
  return (
    <LocaleContext.Provider value="nl">
      <main className="not-found" id="main">
        <h1>{t('notFound.title')}</h1>
        <p>{t('notFound.body')}</p>
      </main>
    </LocaleContext.Provider>
  );
}
