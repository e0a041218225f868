import type { Migration } from './migrate';
import * as v001 from './001-requests-photos-outbox';
import * as v002 from './002-photo-bytes-as-they-are';
import * as v003 from './003-submit-in-one-round-trip';
import * as v004 from './004-deliveries-by-channel';
import * as v005 from './005-gmail-limit-keys';
import * as v006 from './006-where-mail-files-are';
import * as v007 from './007-due-times';
import * as v008 from './008-form-revisions';
import * as v009 from './009-mailbox-counted-after-turn';
import * as v010 from './010-mailbox-count-planned';
import * as v011 from './011-mail-copies';
import * as v012 from './012-mailbox-count-kept-plan';
import * as v013 from './013-submit-as-a-function';
import * as v014 from './014-submits-in-one-transaction';

/**
 * The schema's history, one file a version (NNN-name.ts), each with SQLite's and PostgreSQL's steps side
 * by side (the same SQL where both read it alike). Add a version at the end; never change one that has
 * shipped. Version 1 is the schema as it stood before versions were kept: SQLite's only creates what is
 * missing, so a database of that time takes it as it is. Times are milliseconds since 1970 on both;
 * PostgreSQL keeps photo bytes in the row, so any instance can serve and attach them.
 */
const VERSIONS = [v001, v002, v003, v004, v005, v006, v007, v008, v009, v010, v011, v012, v013, v014];

export const SQLITE_MIGRATIONS: readonly Migration[] = VERSIONS.map((version) => version.sqlite);
export const POSTGRES_MIGRATIONS: readonly Migration[] = VERSIONS.map((version) => version.postgres);
