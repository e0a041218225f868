import type { WidgetProps } from '@rjsf/utils';
import { useEffect, useState } from 'react';
import { assetFileProblem } from '../../../core/validate/asset-file';
import type { ProjectLayout } from '../../project/layout';
import type { FileMap } from '../../project/project-files';
import { fieldContextOf } from '../field-context';

/** The two kinds of picture a brand file names, and the files they may be. */
type PictureKind = 'logo' | 'favicon';
const TYPES: Record<string, 'svg' | 'png'> = { 'image/svg+xml': 'svg', 'image/png': 'png' };

function extensionOf(file: File): 'svg' | 'png' | undefined {
  return TYPES[file.type] ?? (/\.svg$/i.test(file.name) ? 'svg' : /\.png$/i.test(file.name) ? 'png' : undefined);
}

/** A blob: URL of the picture's bytes while it is shown (made and revoked by one effect, so a remount never shows a revoked URL). */
function usePictureUrl(content: string | Uint8Array | undefined, path: string): string | undefined {
  const [url, setUrl] = useState<string | undefined>();
  useEffect(() => {
    if (content === undefined) return setUrl(undefined);
    const type = path.endsWith('.png') ? 'image/png' : 'image/svg+xml';
    const made = URL.createObjectURL(new Blob([content as BlobPart], { type }));
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [content, path]);
  return url;
}

/**
 * The brand's logo or favicon: the picture as it is, and a file chooser for another. A chosen file is
 * checked as `npm run validate` checks it (SVG or PNG, its size, its pixels) before it is taken; taken,
 * it is saved as brands/assets/<id>-<kind>.svg|png and the brand file names it.
 */
export function PictureWidget(props: WidgetProps) {
  const { id, value, onChange, registry, readonly, options, label } = props;
  const { files, layout, data, writeFiles, t } = fieldContextOf(registry);
  const kind = (options.picture === 'favicon' ? 'favicon' : 'logo') as PictureKind;
  const current = typeof value === 'string' ? layout.picture(value) : '';
  const url = usePictureUrl(files.get(current), current);
  const [problem, setProblem] = useState<string | undefined>();

  const choose = async (file: File | undefined) => {
    if (!file) return;
    const extension = extensionOf(file);
    if (!extension) return setProblem(t('fields.pictureType', { name: file.name }));
    const brandId = typeof data.id === 'string' && data.id !== '' ? data.id : 'brand';
    const target = `assets/${brandId}-${kind}.${extension}`;
    const bytes = new Uint8Array(await file.arrayBuffer());
    const refused = assetFileProblem(bytes, layout.picture(target), kind);
    if (refused) return setProblem(refused);
    setProblem(undefined);
    const content = extension === 'svg' ? new TextDecoder().decode(bytes) : bytes;
    // The picture this brand had under another name goes, unless another file of the project still names it.
    const stale = current && current !== layout.picture(target) && !namedElsewhere(files, layout, value as string) ? { [current]: undefined } : {};
    writeFiles({ [layout.picture(target)]: content, ...stale });
    onChange(target);
  };

  return (
    <div className="picture-widget">
      <p className="picture-widget__title">{label}</p>
      {props.schema.description && <p className="studio-field__hint">{props.schema.description}</p>}
      {url ? <img className={`picture-widget__image picture-widget__image--${kind}`} src={url} alt={t('fields.currentPicture', { label })} /> : <p>{t('fields.noPicture')}</p>}
      <p className="picture-widget__path">{value}</p>
      <label htmlFor={id} className="picture-widget__choose">
        {t('fields.choosePicture', { label })}
      </label>
      <input id={id} type="file" accept=".svg,.png,image/svg+xml,image/png" disabled={readonly} aria-describedby={problem ? `${id}__problem` : undefined} onChange={(e) => void choose(e.target.files?.[0])} />
      {problem && (
        <p id={`${id}__problem`} className="studio-field__errors" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}

/** Whether a brand file other than the one edited names this picture ("assets/acme-logo.svg"). */
function namedElsewhere(files: FileMap, layout: ProjectLayout, named: string): boolean {
  const naming = layout.brandIds(files).filter((id) => {
    const text = files.get(layout.brandFile(id));
    return typeof text === 'string' && text.includes(`"${named}"`);
  });
  return naming.length > 1;
}
