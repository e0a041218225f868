import 'virtual:brand-themes.css';
import './styles.css';

/**
 * The prerendered page works before any script runs, so the browser paints it
 * first: only then are the app and the modules this page needs (named by the
 * prerender in <meta name="portal:modules">) fetched, all at once, and the
 * app hydrates. Until then the stylesheet and the logo have the line to
 * themselves. A hidden tab paints nothing (and runs no animation frames): it
 * starts at once.
 */
function start() {
  const modules = document.querySelector<HTMLMetaElement>('meta[name="portal:modules"]')?.content.split(' ') ?? [];
  for (const href of modules) {
    const link = Object.assign(document.createElement('link'), { rel: 'modulepreload', href, crossOrigin: '' });
    document.head.append(link);
  }
  void stages();
}

/** Hands the main thread back to the browser (a tap, a paint) between two steps. */
const yieldToBrowser = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

// Evaluating all modules at once was one task of 130 ms under Lighthouse's 4x slowdown: each
// import now evaluates its own in a task, React's first, then the app's (which hydrates).
async function stages() {
  await import('react-dom/client');
  await yieldToBrowser();
  await import('./start');
}

if (document.visibilityState === 'hidden') start();
else requestAnimationFrame(() => setTimeout(start, 0));
