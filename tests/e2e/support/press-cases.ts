/**
 * The presses of "every press counts" (issue 22), one table for the Chromium
 * suite (tests/e2e/every-press.spec.ts) and the three-engine one
 * (tests/engines/press.spec.ts): a field above a control is filled so its
 * error changes on blur, then the control is pressed. Each suite judges the
 * outcome the way its driver can see it.
 */
import { SUBMIT, field } from './form-page';

/** What the press on the control does, as a person sees it. */
export type PressOutcome =
  | { checked: string }
  | { selectPressed: string }
  | { photoChooser: true }
  | { navigatedTo: string }
  /** The submit ran: the form was rejected and focus went to the first field in error. */
  | { submitted: true };

export interface PressCase {
  brandId: 'kuppersbusch' | 'ilve';
  control: string;
  selector: string;
  /** Verzenden pressed first with every field empty: errors (and the extended form's panel) show. */
  afterEmptySubmit: boolean;
  /** The field above the control that is left: its value, and whether it shows an error after its blur. */
  leave: { name: string; value: string; errorAfter: boolean };
  outcome: PressOutcome;
}

const description = { name: 'description', value: 'Geen warmte.', errorAfter: false };
const badDealer = { name: 'notification', value: 'dealer@', errorAfter: true };
const city = { name: 'city', value: 'Brussel', errorAfter: false };

export const PRESS_CASES: PressCase[] = [
  { brandId: 'kuppersbusch', control: 'terms checkbox', selector: field('isAkkoord'), afterEmptySubmit: true, leave: { ...description, value: 'De oven wordt niet warm.' }, outcome: { checked: 'isAkkoord' } },
  { brandId: 'kuppersbusch', control: 'terms checkbox', selector: field('isAkkoord'), afterEmptySubmit: false, leave: badDealer, outcome: { checked: 'isAkkoord' } },
  { brandId: 'kuppersbusch', control: 'country select', selector: field('country'), afterEmptySubmit: true, leave: city, outcome: { selectPressed: 'country' } },
  { brandId: 'kuppersbusch', control: 'first photo button', selector: 'label[for="root_upload_1"]', afterEmptySubmit: true, leave: description, outcome: { photoChooser: true } },
  { brandId: 'kuppersbusch', control: 'second photo button', selector: 'label[for="root_upload_2"]', afterEmptySubmit: true, leave: description, outcome: { photoChooser: true } },
  { brandId: 'kuppersbusch', control: 'language switch', selector: '.language-switch button[lang="fr"]', afterEmptySubmit: true, leave: { name: 'last_name', value: 'Jansen', errorAfter: false }, outcome: { navigatedTo: '/kuppersbusch/fr/be' } },
  { brandId: 'kuppersbusch', control: 'Verzenden', selector: SUBMIT, afterEmptySubmit: false, leave: badDealer, outcome: { submitted: true } },
  { brandId: 'ilve', control: 'country select', selector: field('country'), afterEmptySubmit: true, leave: city, outcome: { selectPressed: 'country' } },
  { brandId: 'ilve', control: 'first photo button', selector: 'label[for="root_upload_1"]', afterEmptySubmit: true, leave: description, outcome: { photoChooser: true } },
  { brandId: 'ilve', control: 'second photo button', selector: 'label[for="root_upload_2"]', afterEmptySubmit: true, leave: description, outcome: { photoChooser: true } },
  { brandId: 'ilve', control: 'Verzenden', selector: SUBMIT, afterEmptySubmit: true, leave: description, outcome: { submitted: true } },
];

/** The case with no pause between down and up: the terms checkbox after a bad dealer address. */
export const NO_PAUSE_CASE = PRESS_CASES[1];
