import { useState } from 'react';
import { inMemoryFiles, planNewBrand } from '../../core/validate';
import { useLayout } from '../project/layout';
import type { FileContent, FileMap } from '../project/project-files';
import { useStudioT } from '../studio-texts';
import { DialogField } from './dialog-field';
import { StudioDialog } from './studio-dialog';

interface Props {
  files: FileMap;
  onClose(): void;
  /** The files made, and the brand file to open. */
  onCreate(files: Record<string, FileContent>, brandFile: string): void;
}

/**
 * "New brand like …": what `npm run brand -- new <id> --like <brand>` does, in the browser: a copy of
 * another brand under a new id and name, its logo and favicon copied and marked as stand-ins, and the
 * values still to replace listed in its notes. Refused (in the command's words) when the id is taken
 * or not an id.
 */
export function NewBrandDialog({ files, onClose, onCreate }: Props) {
  const t = useStudioT();
  const layout = useLayout();
  const brands = layout.brandIds(files);
  const [id, setId] = useState('');
  const [name, setName] = useState('');
  const [like, setLike] = useState(brands[0] ?? '');
  const [refusal, setRefusal] = useState<string | undefined>();
  const create = () => {
    const plan = planNewBrand(inMemoryFiles(Object.fromEntries(files)), { id: id.trim(), like, name: name.trim() || undefined }, layout.checks);
    if (!plan.ok) return setRefusal(plan.message);
    onCreate(plan.files, layout.brandFile(id.trim()));
    onClose();
  };
  return (
    <StudioDialog title={t('newBrand.title')} action={t('newBrand.create')} onSubmit={create} onClose={onClose}>
      <p>{t('newBrand.intro')}</p>
      <DialogField id="new-brand-name" label={t('newBrand.name')} value={name} onChange={setName} />
      <DialogField id="new-brand-id" label={t('newBrand.id')} hint={t('newBrand.idHint')} value={id} onChange={setId} refusal={refusal} required code />
      <label htmlFor="new-brand-like">{t('newBrand.like')}</label>
      <select id="new-brand-like" value={like} onChange={(e) => setLike(e.target.value)}>
        {brands.map((brand) => (
          <option key={brand} value={brand}>
            {brand}
          </option>
        ))}
      </select>
    </StudioDialog>
  );
}
