interface Props {
  id: string;
  label: string;
  /** What to write, under the label. */
  hint?: string;
  value: string;
  onChange(value: string): void;
  /** Why the dialog refused what was written here: the field is marked, and the sentence describes it. */
  refusal?: string;
  required?: boolean;
  /** Names, ids and codes: no spelling correction. */
  code?: boolean;
}

/** A text field of a studio dialog: its label, its hint and, when the dialog refused it, why (announced). */
export function DialogField({ id, label, hint, value, onChange, refusal, required, code }: Props) {
  const describedBy = [hint ? `${id}-hint` : '', refusal ? `${id}-refusal` : ''].filter(Boolean).join(' ');
  return (
    <>
      <label htmlFor={id}>{label}</label>
      {hint && (
        <p id={`${id}-hint`} className="studio-field__hint">
          {hint}
        </p>
      )}
      <input
        id={id}
        type="text"
        value={value}
        required={required}
        autoComplete="off"
        spellCheck={code ? false : undefined}
        aria-invalid={refusal ? true : undefined}
        aria-describedby={describedBy || undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {refusal && (
        <p id={`${id}-refusal`} className="studio-field__errors" role="alert">
          {refusal}
        </p>
      )}
    </>
  );
}
