// Types of eld-sorted-table.mjs, for the tests that import it.
export type NgramTable = Record<string, Record<string, number>>;
export function tableText(ngrams: NgramTable): string;
export function findInTable(text: string, key: string): string | undefined;
export function sortedTable(text: string): NgramTable;
