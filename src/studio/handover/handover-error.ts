/** Why a hand-over could not be made, in words for the person handing it over. */
export class HandoverError extends Error {
  override name = 'HandoverError';
}
