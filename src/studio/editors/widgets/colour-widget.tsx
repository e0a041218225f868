import type { WidgetProps } from '@rjsf/utils';
import { MIN_TEXT_CONTRAST, TEXT_COLOUR_PAIRS, contrastRatio } from '../../../core/contrast';
import { passingColour } from '../../../core/validate/contrast';
import { fieldContextOf } from '../field-context';

const COLOUR = /^#[0-9a-fA-F]{6}$/;

/** Each text/background pair this colour is part of, with its partner's colour (a '#…' partner is the white page). */
function pairsOf(token: string, theme: Record<string, unknown>): { partner: string; colour: string }[] {
  return TEXT_COLOUR_PAIRS.flatMap(([fore, back]) => {
    const partner = fore === token ? back : back === token ? fore : undefined;
    if (partner === undefined) return [];
    const colour = partner.startsWith('#') ? partner : theme[partner];
    return typeof colour === 'string' && COLOUR.test(colour) ? [{ partner, colour }] : [];
  });
}

/**
 * A theme colour: the browser's colour picker and the #rrggbb text side by side, and under them the
 * contrast verdict for each text/background pair the colour is part of (WCAG AA, as validate
 * judges it), with the nearest colour that would pass.
 */
export function ColourWidget(props: WidgetProps) {
  const { id, value, onChange, onBlur, label, registry, readonly, rawErrors = [] } = props;
  const { t, data } = fieldContextOf(registry);
  const token = String(props.fieldPathId?.path.at(-1) ?? '');
  const theme = (typeof data.theme === 'object' && data.theme !== null ? data.theme : {}) as Record<string, unknown>;
  const colour = typeof value === 'string' ? value : '';
  const valid = COLOUR.test(colour);
  const verdictId = `${id}__contrast`;
  return (
    <div className="colour-widget">
      <div className="colour-widget__inputs">
        <input type="color" value={valid ? colour.toLowerCase() : '#000000'} aria-label={t('fields.colourPicker', { label })} disabled={readonly} onChange={(e) => onChange(e.target.value)} />
        <input
          id={id}
          type="text"
          className="form-control"
          value={colour}
          readOnly={readonly}
          spellCheck={false}
          aria-invalid={rawErrors.length > 0 || undefined}
          aria-describedby={`${id}__error ${id}__description ${verdictId}`}
          onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
          onBlur={(e) => onBlur(id, e.target.value)}
        />
      </div>
      {valid && (
        <ul id={verdictId} className="colour-widget__verdicts">
          {pairsOf(token, theme).map(({ partner, colour: other }) => {
            const ratio = contrastRatio(colour, other);
            const passes = ratio >= MIN_TEXT_CONTRAST;
            const name = partner.startsWith('#') ? t('fields.whitePage') : partner;
            return (
              <li key={partner} className={passes ? 'verdict verdict--pass' : 'verdict verdict--fail'}>
                {t(passes ? 'fields.contrastPasses' : 'fields.contrastFails', {
                  partner: name,
                  colour: other,
                  ratio: (Math.floor(ratio * 100) / 100).toFixed(2),
                  minimum: MIN_TEXT_CONTRAST,
                  better: passes ? '' : passingColour(colour, other),
                })}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
