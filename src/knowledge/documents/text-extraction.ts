// The version of what the loaders make of a file. An index stores the text the loaders
// extracted; when they extract differently, an index built before holds the old text, and a
// refresh that only re-reads changed files would keep it for ever. Raising this number makes
// the next refresh re-read every file (src/knowledge/index/index-store.ts compares it).
//   1: every version before the number was kept (absent from older indexes).
//   2: HTML drops permalink marks and the site's name after a page's title (page-chrome.ts).
export const TEXT_EXTRACTION_VERSION = 2;
