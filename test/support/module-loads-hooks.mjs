// The module hook of module-loads.mjs: names each ES module as it is loaded.
export async function load(url, context, next) {
  const result = await next(url, context);
  process._rawDebug(`loaded ${url}`);
  return result;
}
