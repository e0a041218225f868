import { useEffect, useState } from 'react';
import { findingsOf, type Finding } from './findings';
import type { ProjectLayout } from './layout';
import type { FileMap } from './project-files';

/** After the last edit, before the checks run: typing stays fluent, and a pause shows CI's verdict. */
const QUIET_MS = 200;

/** CI's findings over the files as edited, run again shortly after the last edit; `checking` while they are stale. */
export function useFindings(files: FileMap, layout: ProjectLayout): { findings: Finding[]; checking: boolean } {
  const [result, setResult] = useState<{ files: FileMap; findings: Finding[] }>(() => ({ files, findings: findingsOf(files, layout) }));
  useEffect(() => {
    if (result.files === files) return;
    const timer = setTimeout(() => setResult({ files, findings: findingsOf(files, layout) }), QUIET_MS);
    return () => clearTimeout(timer);
  }, [files, layout, result.files]);
  return { findings: result.findings, checking: result.files !== files };
}
