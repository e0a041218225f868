import { useEffect } from 'react';

/** Keeps title, description, favicon and <html lang> in step with the page shown. */
export function useDocumentHead(title: string, lang: string, favicon?: string, description?: string): void {
  useEffect(() => {
    document.title = title;
    document.documentElement.lang = lang;
    if (description) document.querySelector('meta[name="description"]')?.setAttribute('content', description);
    if (favicon) {
      let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
      if (!link) {
        link = document.createElement('link');
        link.rel = 'icon';
        document.head.append(link);
      }
      link.href = favicon;
    }
  }, [title, lang, favicon, description]);
}
