// One line of documentation per config.json option, for the README table and `--help` texts.
// A test checks that this list and the schema name exactly the same keys.
import { DEADLINES } from "../deadline.js";
import { REFRESH_BUDGET_FOR_ANSWERS_MS } from "../knowledge/index/ingest-limits.js";

export interface ConfigOption {
  /** Key path; `<name>` stands for a collection name you choose. */
  key: string;
  type: string;
  /** The default as text; "—" when there is none (the option is optional and unset). */
  default: string;
  description: string;
}

export const CONFIG_OPTIONS: readonly ConfigOption[] = [
  {
    key: "$schema",
    type: "string",
    default: "—",
    description:
      "The JSON Schema editors check this file against: ./node_modules/second-look/config.schema.json in a project that installed the package. Not read otherwise.",
  },
  {
    key: "description",
    type: "string",
    default: "—",
    description: "What the bot knows about; shown in listings and in the default persona.",
  },
  {
    key: "persona",
    type: "string (file)",
    default: '"persona.md"',
    description:
      "System-prompt file, relative to the bot folder. If unset and persona.md is absent, a built-in persona is used; a file named here must exist.",
  },
  {
    key: "model",
    type: "string",
    default: "— (runtime default)",
    description: "Model the bot answers with. Required when provider is set.",
  },
  {
    key: "provider",
    type: "object",
    default: "— (GitHub Copilot)",
    description: "Bring-your-own-key model endpoint.",
  },
  {
    key: "provider.type",
    type: '"openai" | "anthropic" | "azure"',
    default: "required",
    description: "Wire protocol of the endpoint (openai also covers OpenAI-compatible servers).",
  },
  {
    key: "provider.baseUrl",
    type: "http(s) URL",
    default: "required",
    description: "Endpoint base URL, e.g. https://api.anthropic.com or http://localhost:11434/v1.",
  },
  {
    key: "provider.apiKeyEnv",
    type: "env var name",
    default: "— (no key)",
    description: "NAME of the environment variable holding the API key; the key itself never goes in config.",
  },
  {
    key: "provider.wireModel",
    type: "string",
    default: "— (model)",
    description: "Model name sent on the wire when it differs from model (e.g. an Azure deployment name).",
  },
  {
    key: "provider.headers",
    type: "object of strings",
    default: "—",
    description:
      "Extra HTTP headers on every model request (not for secrets: config files are not secret stores).",
  },
  {
    key: "knowledge",
    type: "object",
    default: "required",
    description: "Where the bot's documents come from.",
  },
  {
    key: "knowledge.backend",
    type: '"embedded" | "huginn" | "postgres"',
    default: '"embedded"',
    description:
      "embedded: in-process index over local files; huginn: a remote Huginn search server; postgres: the collections indexed into a PostgreSQL database shared by every process serving the bot.",
  },
  {
    key: "knowledge.collections",
    type: "object",
    default: "{}",
    description:
      "Collections by name (lowercase slug: a-z, 0-9, -, _). At least one when backend is embedded or postgres.",
  },
  {
    key: "knowledge.collections.<name>.paths",
    type: "string[] (globs)",
    default: "required",
    description: "Files of the collection, globs relative to the bot folder (md, txt, html, pdf).",
  },
  {
    key: "knowledge.collections.<name>.language",
    type: 'BCP-47 tag | "auto"',
    default: '"en"',
    description:
      'Language of the collection\'s documents (e.g. "nb", "de", "ja"): words are split, stemmed and filtered as that language\'s. "auto" detects each document\'s language and searches a query in every language the collection holds. Changing it re-indexes the collection.',
  },
  {
    key: "knowledge.collections.<name>.exclude",
    type: "string[] (globs)",
    default: "—",
    description: "Globs to leave out of the collection.",
  },
  {
    key: "knowledge.collections.<name>.url",
    type: "string | object",
    default: "—",
    description:
      'Where the collection\'s documents are published, so hits, citations and chat replies link to the page: an http(s) template such as "https://docs.example.com/{path}" ({path}: the document\'s path under the folder its paths share), or {"template": …, "extensions": {".md": ".html"} (or "" to drop it), "root": "<folder {path} starts in>"}. A document\'s own http(s) address (front matter url, HTML canonical link) comes first.',
  },
  {
    key: "knowledge.postgres",
    type: "object",
    default: "— (required for postgres)",
    description:
      "The PostgreSQL database; required when backend is postgres. `second-look index <bot>` fills it.",
  },
  {
    key: "knowledge.postgres.urlEnv",
    type: "env var name",
    default: "required",
    description:
      "NAME of the environment variable holding the connection string (postgresql://user:pass@host:5432/db); the string itself never goes in config.",
  },
  {
    key: "knowledge.postgres.schema",
    type: "SQL identifier",
    default: '"second_look"',
    description:
      "Schema holding the tables; created and migrated by second-look. Bots sharing it only see their own collections.",
  },
  {
    key: "knowledge.postgres.botId",
    type: "string",
    default: "the bot folder's name",
    description:
      "The bot's key in the database. Set it when two bot folders share a name and a database (each its own), or when copies of one bot index from different folders (all the same); a folder whose name-derived key another folder indexed is refused.",
  },
  {
    key: "knowledge.huginn",
    type: "object",
    default: "— (required for huginn)",
    description: "The Huginn server; required when backend is huginn.",
  },
  {
    key: "knowledge.huginn.url",
    type: "http(s) URL",
    default: "required",
    description: "Huginn base URL, e.g. http://localhost:8321.",
  },
  {
    key: "knowledge.huginn.collections",
    type: "string[]",
    default: "required",
    description: "Server collections the bot may search; searches and re-queries never leave them.",
  },
  {
    key: "knowledge.huginn.timeoutMs",
    type: "integer > 0",
    default: "— (backend default)",
    description: "Per-request timeout for the Huginn server.",
  },
  {
    key: "knowledge.ingest",
    type: "object",
    default: "—",
    description:
      "Bounds on parsing one file while indexing (embedded or postgres); a file past one is skipped with a warning naming the file and the bound.",
  },
  {
    key: "knowledge.ingest.fileTimeoutMs",
    type: "integer 100–600000",
    default: String(DEADLINES.ingestFileMs),
    description:
      "Limit on reading, parsing and analysing one file: its parser thread's CPU time (wall-clock time where the platform does not tell it, i.e. not on Linux), and 5 times as much wall-clock time in any case, so a busy machine does not refuse a benign file (holds even when a parser never yields).",
  },
  {
    key: "knowledge.ingest.fileMemoryMb",
    type: "integer 64–8192",
    default: "512",
    description:
      "Memory limit for parsing one file (its parser thread's heap, and what it may add to the process).",
  },
  {
    key: "knowledge.ingest.workers",
    type: "integer 1–16",
    default: "cores, at most 4",
    description: "Parser threads working in parallel.",
  },
  {
    key: "knowledge.ingest.refreshBeforeAnswerMs",
    type: "integer 0–600000",
    default: String(REFRESH_BUDGET_FOR_ANSWERS_MS),
    description:
      "How long `search`, `ask` and `mcp` spend bringing the embedded index up to date before they answer from the index as it stands; files not yet read are read by the next refresh (`mcp` finishes in the background), and the log says how many.",
  },
  {
    key: "correctiveRetrieval",
    type: "object",
    default: "— (env, then off)",
    description:
      "Grade every knowledge search and re-query when it is weak. Unset fields fall back to CORRECTIVE_RETRIEVAL_* env vars, then to the defaults below; CORRECTIVE_RETRIEVAL_DISABLED=1 turns it off everywhere.",
  },
  {
    key: "correctiveRetrieval.enabled",
    type: "boolean",
    default: "false",
    description:
      "Turn corrective retrieval on for this bot (false also overrides CORRECTIVE_RETRIEVAL_ENABLED).",
  },
  {
    key: "correctiveRetrieval.retryBudget",
    type: "number",
    default: "1",
    description: "Re-queries per search; floored and clamped to 1 or 2.",
  },
  {
    key: "correctiveRetrieval.grader",
    type: '"signal" | "haiku" | "auto"',
    default: '"signal"',
    description:
      "signal: no model call, reads relevance bands and hints; haiku: one small-model call per search; auto: signal first, escalating to haiku only when the signal is inconclusive and a grader model is reachable.",
  },
  {
    key: "correctiveRetrieval.graderModel",
    type: "string",
    default: '"claude-haiku-4-5"',
    description: "Model for the haiku grader.",
  },
  {
    key: "correctiveRetrieval.graderTimeoutMs",
    type: "integer > 0",
    default: String(DEADLINES.graderMs),
    description: "Grader call timeout; on timeout the results pass through unchanged.",
  },
  {
    key: "correctiveRetrieval.graderProvider",
    type: "object (as provider)",
    default: "— (provider)",
    description: "Separate endpoint for the grader model; same keys as provider.",
  },
  { key: "retrieval", type: "object", default: "{}", description: "How searches are scored." },
  {
    key: "retrieval.rerankStrategy",
    type: '"lexical" | "single-pass"',
    default: '"lexical"',
    description:
      "Second scoring pass: lexical feature model (no LLM) or one LLM call over the top candidates.",
  },
  {
    key: "retrieval.planning",
    type: "boolean",
    default: "false",
    description: "Split multi-part questions into sub-queries (planner + decomposer; LLM calls).",
  },
  {
    key: "retrieval.answerSpans",
    type: "boolean",
    default: "false",
    description: "Attach a verbatim supporting quote to each hit (LLM call).",
  },
  {
    key: "retrieval.deepFallback",
    type: '"off" | "auto" | "treewalk" | "agentic"',
    default: '"off"',
    description:
      "When a corrective re-query is still weak, read its leading documents with an LLM strategy (auto: treewalk for paged documents, else agentic).",
  },
  { key: "session", type: "object", default: "{}", description: "Limits on one conversation turn." },
  {
    key: "session.maxToolCalls",
    type: "integer > 0",
    default: "8",
    description: "Tool calls allowed per turn before the session is stopped.",
  },
  {
    key: "session.timeoutMs",
    type: "integer > 0",
    default: String(DEADLINES.sessionTurnMs),
    description: "Wall-clock limit for one turn; the session is aborted when it is reached.",
  },
];
