/** A developer's request id: its own number, in order (decisions: Request log). */
export const developerRequestId = (number: number) => `req_${String(number).padStart(8, '0')}`;

/** The number a developer's request id spells (`req_00000042` → 42), or undefined when it is not one. */
export function requestNumberOf(id: string): number | undefined {
  const match = /^req_(\d{8,15})$/.exec(id);
  return match ? Number(match[1]) : undefined;
}
