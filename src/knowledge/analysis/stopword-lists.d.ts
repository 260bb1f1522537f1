// The lists languages.ts imports from the `stopword` package's ES module build, which its types
// (@types/stopword, written for the CommonJS main) do not name.
declare module "stopword/dist/stopword.esm.mjs" {
  export const ara: string[];
  export const cat: string[];
  export const ces: string[];
  export const eng: string[];
  export const jpn: string[];
  export const kor: string[];
  export const pol: string[];
  export const tha: string[];
  export const zho: string[];
}
