/**
 * The local V1 client convention (fixtures/real-shapes/README.md, "Local V1
 * clients"), shared by the Python and JS/TS scanners: a class, factory or
 * module of functions is a local V1 client when its own members send V1
 * requests and it holds the connection settings (a base URL or API key as a
 * constructor or factory parameter, a field default, or a module-level
 * binding), and its create-run members take the deployment from their
 * caller. Code that reads the app's shared settings object, or that picks the
 * deployment itself from the app's inputs (a prompt), is the app's own
 * service: its requests are reported, its importers and callers are not.
 */

/** A name for a connection setting: the base URL, the API key. */
export const CONNECTION_SETTING = /url|base|host|endpoint|server|api|key|token|secret|auth|bearer|credential/i;

/** A value that binds a setting where it is written: an environment read or a URL. */
export const SETTING_VALUE = /:\/\/|\bgetenv\b|\benviron\b|process\.env|import\.meta\.env|Deno\.env/;

/**
 * The expression a request body's `deployment_id` is set from, as written
 * (`deployment_id`, `config.comfy.deploymentId`; a quote for a literal), or
 * undefined when the text sets none.
 */
export function deploymentSource(text: string): string | undefined {
  const match = /["'`]?\bdeployment_id["'`]?\s*[:=]\s*([A-Za-z_$][\w$.]*|["'`])|[{,]\s*(deployment_id)\s*[,}]/.exec(
    text,
  );
  return match?.[1] ?? match?.[2];
}

/** Whether a body sets `deployment_id` from something other than the sending function's parameters. */
export function fixesDeployment(text: string, parameters: ReadonlySet<string>): boolean {
  const source = deploymentSource(text);
  return source !== undefined && !parameters.has(source.split(".")[0]!);
}
