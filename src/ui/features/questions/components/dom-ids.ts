/** Element ids inside the dock, derived from record and question ids so keys and focus can find them. */
const safe = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, '_');
export const questionTextId = (recordId: string, itemId: string) => `qd-${safe(recordId)}-${itemId}-text`;
export const headerId = (recordId: string, itemId: string) => `qd-${safe(recordId)}-${itemId}-header`;
export const optionId = (recordId: string, itemId: string, index: number) => `qd-${safe(recordId)}-${itemId}-opt-${index}`;
export const otherId = (recordId: string, itemId: string) => `qd-${safe(recordId)}-${itemId}-other`;
export const problemId = (recordId: string, itemId: string) => `qd-${safe(recordId)}-${itemId}-problem`;
