/**
 * How a phone photo is made small enough to send and to mail, on the page
 * (before upload) and on the server (for what arrives without the page's
 * scripts) alike: upright, the longest side at most `longestSide`, JPEG at
 * `jpegQuality` (0–1), and only when that is smaller than what was sent.
 */
export const PHOTO_LIMITS = {
  /** Below this the page sends a photo as it is. */
  smallBytes: 1_000_000,
  longestSide: 2560,
  /** High enough for the small print of a type plate; a 12 MP phone photo comes out near 0.75 MB. */
  jpegQuality: 0.85,
} as const;
