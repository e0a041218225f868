import { newUuid } from '../../web/form/submit-request';
import type { Sending } from '../../web/form/sending';

/**
 * The preview sends nothing: a chosen photo is taken at once under a made-up name (after the page's
 * own checks of its size and type), and a valid form ends on the page's confirmation, so the brand
 * owner sees every step a customer sees, and no request reaches anyone.
 */
export const previewSending: Sending = {
  upload(_to, file, onProgress) {
    const extension = file.type === 'image/png' ? 'png' : 'jpg';
    // Reported after the job is handed back, as a real upload's progress is.
    const promise = Promise.resolve().then(() => {
      onProgress(100);
      return `${newUuid()}.${extension}`;
    });
    return { promise, abort() {} };
  },
  submit: async () => ({}),
};
