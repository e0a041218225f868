import type { ValidationIssue } from '../../core/field-errors';
import type { FormModel } from '../../core/form-model';
import { postedProperty } from '../../core/form-post';
import type { RepairFormData } from '../../core/types';
import { HttpError } from '../http-error';
import type { PhotoIntake } from '../photos/photo-intake';
import type { PostedPhoto } from './posted-form';

/**
 * The photos of a form posted without scripts, by the picker they were chosen in. Placed in the form's
 * data as the page has them before an upload ends: the picker holds the file's facts (its rules judge
 * them), the target waits (pending) for the stored name. Received files not stored are removed before
 * any answer: nothing of a post outlives it.
 */
export class PostedPhotos {
  private readonly byPicker = new Map<string, PostedPhoto>();
  private readonly waiting: Set<PostedPhoto>;
  private readonly targetOf: Record<string, string>;

  constructor(
    private readonly posted: readonly PostedPhoto[],
    private readonly model: Pick<FormModel, 'schema' | 'photos'>,
    private readonly intake: PhotoIntake,
  ) {
    this.waiting = new Set(posted.filter((p) => p.received));
    this.targetOf = Object.fromEntries(model.photos.map((p) => [p.picker, p.target]));
  }

  /** Puts each photo's facts on its picker and empties its target; returns the targets now pending. */
  place(data: Partial<RepairFormData>): string[] {
    for (const photo of this.posted) {
      const picker = postedProperty(photo.control, this.model.schema);
      if (!picker || !this.targetOf[picker]) continue;
      this.byPicker.set(picker, photo);
      data[picker] = photo.facts;
      delete data[this.targetOf[picker]];
    }
    return [...this.byPicker.keys()].map((picker) => this.targetOf[picker]);
  }

  /**
   * Stores each received photo whose picker's rules passed (`refusedPickers` says which did not), its name
   * in its target; a file whose content is no photo of an allowed type is an issue of its picker.
   */
  async store(data: Partial<RepairFormData>, refusedPickers: (picker: string) => boolean, owner: string): Promise<ValidationIssue[]> {
    const issues: ValidationIssue[] = [];
    for (const [picker, photo] of this.byPicker) {
      if (!photo.received || refusedPickers(picker)) continue;
      this.waiting.delete(photo);
      try {
        data[this.targetOf[picker]] = await this.intake.store(photo.received, owner);
      } catch (error) {
        if (!(error instanceof HttpError && error.statusCode === 415)) throw error;
        issues.push({ keyword: 'fileRules', instancePath: `/${picker}`, params: { rule: 'types' } });
      }
    }
    await this.discardWaiting();
    return issues;
  }

  /** Removes the received files not stored. */
  async discardWaiting(): Promise<void> {
    const files = [...this.waiting];
    this.waiting.clear();
    await Promise.all(files.map((p) => this.intake.discard(p.received!)));
  }
}
