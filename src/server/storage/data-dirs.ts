/** Folders below DATA_DIR: the server writes them, retention and erasure clean them. */
export const PHOTOS_DIR = 'photos';
export const OUTBOX_DIR = 'outbox';
