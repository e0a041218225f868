import { createContext } from 'react';
import { submitRepairRequest } from './submit-request';
import { shrinkAndUpload } from './widgets/photo-upload/upload-photo';

/** How the form sends: its photos as they are chosen, then the request. */
export interface Sending {
  upload: typeof shrinkAndUpload;
  submit: typeof submitRepairRequest;
}

/** To the portal's API; the studio's preview sends nothing, and says what would have been sent instead. */
export const SendingContext = createContext<Sending>({ upload: shrinkAndUpload, submit: submitRepairRequest });
