// The direction of dependencies between the folders of src/ (docs/architecture.md, "Layers").
// A folder may import only folders listed before it in LAYERS; `npm test` runs this check, so
// an import that runs the wrong way fails CI with the rule's name and both files.
const LAYERS = [
  "knowledge-tool",
  "telemetry",
  "llm",
  "knowledge",
  "backends",
  "corrective",
  "strategies",
  "bots",
  "connectors",
  "hosts",
  "evaluation",
  "cli",
];

const folder = (name) => `^src/${name}/`;

const layerRules = LAYERS.map((layer, i) => ({
  name: `${layer}-imports-only-layers-above-it`,
  comment: `src/${layer} may import only ${LAYERS.slice(0, i).join(", ") || "src/types.ts"} (and src/types.ts)`,
  severity: "error",
  from: { path: folder(layer) },
  to: { path: `^src/(${LAYERS.slice(i + 1).join("|") || "(?!)"})/` },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: "knowledge-tool-and-telemetry-import-only-types",
      comment:
        "the knowledge tools' contract (arguments, result text, signal rules) and telemetry are the bottom layers: nothing of ours but the root modules (types, limits, deadline, text-clip, secret-text, errors, edit-distance, search-request, optional-package, weakness)",
      severity: "error",
      from: { path: "^src/(knowledge-tool|telemetry)/" },
      to: {
        path: "^src/",
        pathNot: [
          "^src/(knowledge-tool|telemetry)/",
          "^src/(types|limits|deadline|text-clip|secret-text|errors|edit-distance|search-request|optional-package|weakness)\\.ts$",
        ],
      },
    },
    {
      name: "telemetry-and-knowledge-tool-are-independent",
      severity: "error",
      from: { path: "^src/telemetry/" },
      to: { path: "^src/knowledge-tool/" },
    },
    {
      name: "knowledge-and-llm-are-independent",
      comment: "the engine and the backends never call a model; model-driven retrieval lives in strategies/",
      severity: "error",
      from: { path: "^src/(knowledge|backends)/" },
      to: { path: "^src/llm/" },
    },
    {
      name: "corrective-uses-no-concrete-backend",
      comment:
        "corrective depends on the KnowledgeBackend interface (src/types.ts), never on the engine or a backend",
      severity: "error",
      from: { path: "^src/corrective/" },
      to: { path: "^src/(knowledge|backends)/" },
    },
    {
      name: "postgres-reaches-the-engine-only-through-the-ranking-core",
      comment:
        "the PostgreSQL backend ranks with the ranking core's interface (knowledge/ranking-core/index.ts) and indexes with the shared ingest surface (knowledge/ingest-core.ts); text analysis (analysis/), document loading (documents/) and the layer's error codes (knowledge-error.ts) are shared as they are; nothing else of knowledge/ (docs/architecture.md, \"The ranking core\")",
      severity: "error",
      // postgres-entry.ts is the backend as the registry describes it (settings, ingest bounds,
      // the calibration file it supersedes), not the backend's own code.
      from: { path: "^src/backends/postgres/", pathNot: "^src/backends/postgres/postgres-entry\\.ts$" },
      to: {
        path: "^src/(knowledge|backends)/",
        pathNot: [
          "^src/backends/postgres/",
          "^src/knowledge/ranking-core/index\\.ts$",
          "^src/knowledge/ingest-core\\.ts$",
          "^src/knowledge/knowledge-error\\.ts$",
          "^src/knowledge/(analysis|documents)/",
        ],
      },
    },
    {
      name: "the-ranking-core-holds-no-backend",
      comment:
        "the ranking core ranks indexes it is given: it never reaches a backend (the embedded engine, its stored index and refresh, the ingest surface, Huginn, PostgreSQL), so reaching the core is not a way around the rule above",
      severity: "error",
      from: { path: "^src/knowledge/ranking-core/" },
      to: {
        path: "^src/backends/|^src/knowledge/ingest-core\\.ts$|^src/knowledge/index/(index-store|refresh|ingest-[a-z]+)\\.ts$",
      },
    },
    {
      name: "root-modules-import-only-each-other",
      comment: "src/types.ts and the small shared rules beside it sit below every layer",
      severity: "error",
      from: {
        path: "^src/(types|limits|deadline|text-clip|secret-text|errors|edit-distance|search-request|optional-package|weakness)\\.ts$",
      },
      to: {
        path: "^src/",
        pathNot:
          "^src/(types|limits|deadline|text-clip|secret-text|errors|edit-distance|search-request|optional-package|weakness)\\.ts$",
      },
    },
    {
      name: "no-circular",
      severity: "error",
      from: { path: "^src/" },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    includeOnly: "^src/",
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
  },
};
