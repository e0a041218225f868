import type { Registry, RJSFSchema, WidgetProps } from '@rjsf/utils';
import type { FieldErrors } from '../../core/field-errors';
import type { FormModel } from '../../core/form-model';
import type { Languages, Translate } from '../../core/texts';
import type { Brand, Country, Locale } from '../../core/types';
import type { Thumbnails } from './draft-storage';
import type { PhotoUploadState } from './upload-state';

/** What the page's own callbacks do; they read the latest state (hooks/use-form-store.ts), so rjsf's stale closures never matter. */
export interface RepairFormActions {
  choosePhoto(field: string, target: string, file: File): void;
  /** Sends the photo last chosen for the field again (after 'Netwerk error!'), without choosing it again. */
  retryPhoto(field: string, target: string): void;
}

/**
 * Data in formContext makes rjsf re-render widgets when it changes (its deep
 * compare treats all functions as equal, so functions alone would not).
 */
export interface RepairFormContext {
  /** The brand's form: what its schema and uiSchema say of each field, and its options. */
  model: FormModel;
  locale: Locale;
  brand: Brand;
  country: Country;
  t: Translate;
  /** The texts `t` reads: data, so that rjsf renders the fields again when they change (the studio's preview). */
  texts: Languages;
  /** Errors of touched fields only: what the user may see. */
  visibleErrors: FieldErrors;
  lookupBusy: boolean;
  uploads: Record<string, PhotoUploadState>;
  /** Thumbnails kept across a reload, per picker (draft-storage.ts). */
  thumbnails: Thumbnails;
  actions: RepairFormActions;
}

export const ID_PREFIX = 'root';

/** The schema property behind an rjsf id (the schema is flat: root_<name>). */
export function fieldNameOf(id: string): string {
  return id.startsWith(`${ID_PREFIX}_`) ? id.slice(ID_PREFIX.length + 1) : id;
}

export function fieldId(name: string): string {
  return `${ID_PREFIX}_${name}`;
}

export function errorId(id: string): string {
  return `${id}__error`;
}

export function hintId(id: string): string {
  return `${id}__hint`;
}

export function formContextOf(registry: Registry): RepairFormContext {
  return registry.formContext as RepairFormContext;
}

/** aria attributes of a field: invalid only when an error shows, described by that error (and a hint). */
export function fieldAria(ctx: RepairFormContext, id: string, extraDescribedBy: string[] = []) {
  const errors = ctx.visibleErrors[fieldNameOf(id)];
  const invalid = Boolean(errors?.length);
  const describedBy = [...extraDescribedBy, ...(invalid ? [errorId(id)] : [])];
  return {
    'aria-invalid': invalid || undefined,
    'aria-describedby': describedBy.length ? describedBy.join(' ') : undefined,
  } as const;
}

/** A form with the stopAtMaxLength option (the extended one) stops inputs at the schema's maxLength: it shows no max-length message. */
export function hardMaxLength(ctx: RepairFormContext, schema: RJSFSchema): number | undefined {
  return ctx.model.options.stopAtMaxLength && typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
}

type ControlProps = Pick<WidgetProps, 'id' | 'onChange' | 'onBlur' | 'onFocus' | 'options'>;

/** Change, blur and focus of a native control as rjsf expects them (an emptied control is `emptyValue`). */
export function controlHandlers({ id, onChange, onBlur, onFocus, options }: ControlProps) {
  return {
    onChange: (e: { target: { value: string } }) => onChange(e.target.value === '' ? options.emptyValue : e.target.value),
    onBlur: (e: { target: { value: string } }) => onBlur(id, e.target.value),
    onFocus: (e: { target: { value: string } }) => onFocus(id, e.target.value),
  };
}
