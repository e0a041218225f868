import type { LayoutFolders } from '../project/layout';
import type { FileContent } from '../project/project-files';
import type { StudioLanguage } from '../studio-texts';

/** The page the preview shows: a brand's, in one of its languages, for one of its countries. */
export interface PreviewRoute {
  brand: string;
  locale: string;
  country: string;
}

/** The studio to its preview frame: the files as edited, and which page to show. */
export interface PreviewRequest {
  kind: 'portal-preview';
  files: Record<string, FileContent>;
  layout: LayoutFolders;
  route: PreviewRoute;
  language: StudioLanguage;
  /** When the studio sent it (Date.now()): the frame answers when it has shown it. */
  sentAt: number;
}

/** The frame to the studio: it showed a request (`stale`: the files could not make a page, the last one that could stays). */
export interface PreviewAnswer {
  kind: 'portal-preview-shown';
  sentAt: number;
  shownAt: number;
  stale?: string;
}

/** The frame is ready for its first request. */
export interface PreviewReady {
  kind: 'portal-preview-ready';
}
