// Git's base85 alphabet (base85.c), which differs from Ascii85 and RFC 1924's order.
const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~';

/** Git's base85 (encode_85): each 4 bytes, the last zero-padded, as 5 digits, most significant first. */
export function encodeBase85(bytes: Uint8Array): string {
  let out = '';
  for (let at = 0; at < bytes.length; at += 4) {
    let value = 0;
    for (let i = 0; i < 4; i++) value = value * 256 + (bytes[at + i] ?? 0);
    let group = '';
    for (let i = 0; i < 5; i++) {
      group = DIGITS[value % 85] + group;
      value = Math.floor(value / 85);
    }
    out += group;
  }
  return out;
}
