/**
 * The ajv options every validator of a repair request uses (page build,
 * server, CLI): no coercion, no silent removal, no defaults, so the server
 * judges exactly what the page judged.
 */
export const repairAjvOptions = {
  allErrors: true,
  $data: true,
  coerceTypes: false,
  useDefaults: false,
  removeAdditional: false,
} as const;
