import { getDefaultRegistry } from '@rjsf/core';
import type { FieldProps } from '@rjsf/utils';
import { useCallback } from 'react';

const { NumberField } = getDefaultRegistry().fields;

/** A typed whole number as a number; anything else stays text, so the schema's type rule names it. */
export function wholeNumber(typed: unknown): unknown {
  if (typeof typed !== 'string') return typed;
  const text = typed.trim();
  if (text === '') return undefined;
  return /^-?\d+$/.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : typed;
}

/**
 * rjsf's NumberField for an `integer`, without its decimal separator: rjsf asks
 * Intl.NumberFormat for one on every render, and the first costs a phone a long
 * task during hydration (tens of ms, four times that on Lighthouse's phone). A
 * whole number has no decimals to localise. `number` fields keep rjsf's own.
 */
export function WholeNumberField(props: FieldProps) {
  const { onChange } = props;
  const change = useCallback<FieldProps['onChange']>((value, ...rest) => onChange(wholeNumber(value), ...rest), [onChange]);
  if (props.schema.type !== 'integer') return <NumberField {...props} />;
  const { StringField } = props.registry.fields;
  return <StringField {...props} onChange={change} />;
}
