/** The messages of one field; its id is what the input's aria-describedby points to. */
export function FieldErrorList({ id, errors }: { id: string; errors?: string[] }) {
  if (!errors?.length) return null;
  return (
    <div className="field__error" id={id}>
      {errors.map((message) => (
        <p key={message}>{message}</p>
      ))}
    </div>
  );
}
