import { useState } from 'react';
import { inMemoryFiles, planNewLanguage } from '../../core/validate';
import type { FileContent, FileMap } from '../project/project-files';
import { useLayout } from '../project/layout';
import { useStudioT } from '../studio-texts';
import { DialogField } from './dialog-field';
import { StudioDialog } from './studio-dialog';

interface Props {
  files: FileMap;
  onClose(): void;
  onCreate(files: Record<string, FileContent>, file: string): void;
}

/**
 * "New language": what `npm run language -- new <code>` does: a language file with only its own name
 * and date locale; every text it lacks shows in Dutch until it is written, and the checks count them.
 */
export function NewLanguageDialog({ files, onClose, onCreate }: Props) {
  const t = useStudioT();
  const layout = useLayout();
  const [code, setCode] = useState('');
  const [name, setName] = useState('');
  const [refusal, setRefusal] = useState<string | undefined>();
  const create = () => {
    const plan = planNewLanguage(inMemoryFiles(Object.fromEntries(files)), { code: code.trim(), name: name.trim() || undefined }, layout.checks);
    if (!plan.ok) return setRefusal(plan.message);
    onCreate(plan.files, layout.languageFile(code.trim()));
    onClose();
  };
  return (
    <StudioDialog title={t('newLanguage.title')} action={t('newLanguage.create')} onSubmit={create} onClose={onClose}>
      <p>{t('newLanguage.intro')}</p>
      <DialogField id="new-language-code" label={t('newLanguage.code')} hint={t('newLanguage.codeHint')} value={code} onChange={setCode} refusal={refusal} required code />
      <DialogField id="new-language-name" label={t('newLanguage.name')} hint={t('newLanguage.nameHint')} value={name} onChange={setName} />
    </StudioDialog>
  );
}
