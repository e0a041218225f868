import { describe, expect, it } from 'vitest';
import { quietUploads, reduceUploads } from '../../../src/web/form/upload-state';

describe('quietUploads: pickers whose `required` stays quiet', () => {
  it('names uploads still running or failed, not those done or refused', () => {
    let uploads = reduceUploads({}, { type: 'uploadStarted', field: 'running', fileName: 'a.jpg' });
    uploads = reduceUploads(uploads, { type: 'uploadStarted', field: 'failed', fileName: 'b.jpg' });
    uploads = reduceUploads(uploads, { type: 'uploadFailed', field: 'failed' });
    uploads = reduceUploads(uploads, { type: 'uploadStarted', field: 'done', fileName: 'c.jpg' });
    uploads = reduceUploads(uploads, { type: 'uploadDone', field: 'done' });
    uploads = reduceUploads(uploads, { type: 'uploadRefused', field: 'refused', fileName: 'd.pdf' });
    expect(quietUploads(uploads).sort()).toEqual(['failed', 'running']);
  });
});
