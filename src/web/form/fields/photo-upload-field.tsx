import type { FieldProps } from '@rjsf/utils';
import type { ChangeEvent } from 'react';
import type { Translate } from '../../../core/texts';
import type { FileFacts } from '../../../core/types';
import { errorId, fieldAria, fieldNameOf, formContextOf, hintId } from '../form-context';
import { FieldErrorList } from '../templates/field-error-list';
import type { PhotoUploadState } from '../upload-state';

export const PHOTO_ACCEPT = 'image/png,image/jpeg';

/**
 * One photo: chosen, checked against the photo rules, uploaded at once. The
 * stored file name goes to the hidden field named by `ui:options.target`.
 */
export function PhotoUploadField(props: FieldProps<FileFacts>) {
  const { fieldPathId, formData, registry, uiSchema, disabled, readonly } = props;
  const ctx = formContextOf(registry);
  const { t } = ctx;
  const id = fieldPathId.$id;
  const name = fieldNameOf(id);
  const target = String((uiSchema?.['ui:options'] as { target?: string } | undefined)?.target ?? '');
  const upload = ctx.uploads[name];
  const fileName = upload?.fileName ?? formData?.name;
  const kept = ctx.thumbnails[name];
  // A refused file is no photo to show (a PDF named .jpg would be a broken image).
  const refused = upload?.status === 'invalid';
  const thumbnail = refused ? undefined : (upload?.previewUrl ?? (kept && kept.name === fileName ? kept.url : undefined));
  const { statusId, networkErrorId } = photoIds(id);
  const failed = upload?.status === 'error';
  // Stored once, but no longer when the request was sent: only choosing it again helps.
  const gone = upload?.status === 'gone';
  const aria = fieldAria(ctx, id, [hintId(id), ...(fileName ? [statusId] : []), ...(failed || gone ? [networkErrorId] : [])]);

  function choose(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    // Cleared so that choosing the same file again (after a failure) fires a change.
    event.target.value = '';
    if (file) ctx.actions.choosePhoto(name, target, file);
  }

  return (
    <div className={`field field--photo${aria['aria-invalid'] || failed || gone ? ' field--invalid' : ''}`}>
      <label className="field__label" htmlFor={id}>
        {t(`fields.${name}`)}
      </label>
      <p className="field__hint" id={hintId(id)}>
        {t('upload.hint')}
      </p>
      {/* The native picker speaks the browser's language; a button-styled label speaks the page's.
          The input stays focusable (visually hidden), so keyboard users reach it. */}
      <div className="photo__picker">
        <input
          className="photo__input visually-hidden"
          id={id}
          name={id}
          type="file"
          accept={PHOTO_ACCEPT}
          disabled={disabled || readonly}
          aria-required={props.required || undefined}
          {...aria}
          aria-invalid={aria['aria-invalid'] || failed || gone || undefined}
          onChange={choose}
        />
        <label className="photo__button" htmlFor={id}>
          {fileName ? t('upload.change') : t('upload.choose')}
        </label>
      </div>
      <PhotoStatus id={id} upload={upload} fileName={fileName} thumbnail={thumbnail} t={t} onRetry={() => ctx.actions.retryPhoto(name, target)} />
      <FieldErrorList id={errorId(id)} errors={ctx.visibleErrors[name]} />
    </div>
  );
}

/** The ids that tie a photo's status lines to its input. */
const photoIds = (id: string) => ({ progressId: `${id}__progress`, statusId: `${id}__status`, networkErrorId: `${id}__network` });

interface PhotoStatusProps {
  id: string;
  upload: PhotoUploadState | undefined;
  fileName: string | undefined;
  thumbnail: string | undefined;
  t: Translate;
  onRetry(): void;
}

/** Under the picker: the upload's progress, the file chosen, and what went wrong with its sending. */
function PhotoStatus({ id, upload, fileName, thumbnail, t, onRetry }: PhotoStatusProps) {
  const { progressId, statusId, networkErrorId } = photoIds(id);
  const failed = upload?.status === 'error';
  const gone = upload?.status === 'gone';
  return (
    <>
      {upload?.status === 'uploading' && (
        <div className="photo__progress">
          <label htmlFor={progressId}>{t('upload.uploading', { percent: upload.percent })}</label>
          <progress id={progressId} max={100} value={upload.percent} />
        </div>
      )}
      {fileName && (
        <p className="photo__file" id={statusId}>
          {thumbnail && <img className="photo__thumb" src={thumbnail} alt="" width={64} height={64} />}
          <span className="photo__name">{fileName}</span>
        </p>
      )}
      {gone && (
        <p className="field__error" id={networkErrorId}>
          {t('upload.chooseAgain')}
        </p>
      )}
      {failed && (
        <>
          <p className="field__error" id={networkErrorId}>
            {upload?.said ?? t('upload.networkError')}
          </p>
          <button type="button" className="photo__button photo__retry" onClick={onRetry}>
            {t('upload.retry')}
          </button>
        </>
      )}
    </>
  );
}
