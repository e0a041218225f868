import type { PhotoFolder } from './photo-folder';
import { unclaimedBytes, type UnclaimedBytes } from './queries/photo-rows';
import type { Db } from './queries/requests';

/**
 * What both backends' photo stores share: uploads in progress are temp files
 * in DATA_DIR/photos, and the rows that count unclaimed photos against the quotas.
 */
export abstract class PhotoRowsStore {
  constructor(
    protected readonly db: Db,
    protected readonly folder: PhotoFolder,
  ) {}

  tempPath(): string {
    return this.folder.tempPath();
  }

  removeTemp(path: string): Promise<void> {
    return this.folder.remove(path);
  }

  unclaimedBytes(owner: string, groups: readonly string[] = []): Promise<UnclaimedBytes> {
    return unclaimedBytes(this.db, owner, groups);
  }
}
