/**
 * Minimal declarations standing in for the dependencies of fixture apps that
 * are not installed here (React, Next, axios, discord.js), reduced to what the
 * fixtures use. Nothing here stands in for comfydeploy: type checks resolve
 * the real SDK packages.
 */

/** JSX for .tsx fixtures that render plain elements only. */
export const JSX_DECLARATIONS = `declare namespace JSX {
  interface Element {}
  interface IntrinsicElements { [name: string]: { [attribute: string]: unknown } }
}
`;

/** JSX whose elements type `onChange`, so inline handlers need no annotation. */
const JSX_FORM_DECLARATIONS = `declare namespace JSX {
  interface Element {}
  interface IntrinsicElements {
    [name: string]: { onChange?: (event: { target: { value: string } }) => void; [attribute: string]: unknown };
  }
}
`;

const REACT_DECLARATIONS = `declare module "react" {
  export interface FormEvent<T = Element> { preventDefault(): void; currentTarget: T }
  export type ReactNode = JSX.Element | string | number | boolean | null | undefined | ReactNode[];
  export function useState<S>(initial: S | (() => S)): [S, (value: S | ((previous: S) => S)) => void];
  export function useEffect(effect: () => void | (() => void), deps?: readonly unknown[]): void;
}
`;

const AXIOS_DECLARATIONS = `declare module "axios" {
  interface RequestConfig { params?: Record<string, unknown>; headers?: Record<string, string> }
  const axios: { get<T>(url: string, config?: RequestConfig): Promise<{ data: T }> };
  export default axios;
}
`;

const NEXT_DECLARATIONS = `declare module "next/server" {
  export class NextResponse<Body = unknown> extends Response {
    static json<Body>(body: Body, init?: ResponseInit): NextResponse<Body>;
  }
}
declare module "next/cache" {
  export function revalidatePath(path: string, type?: "page" | "layout"): void;
}
`;

/** The demo app's dependencies other than comfydeploy. */
export const DEMO_DEPENDENCY_DECLARATIONS = REACT_DECLARATIONS + AXIOS_DECLARATIONS + JSX_FORM_DECLARATIONS;

/** The TypeScript scenario apps' dependencies other than comfydeploy and zod. */
export const SCENARIO_DEPENDENCY_DECLARATIONS = REACT_DECLARATIONS + NEXT_DECLARATIONS + JSX_FORM_DECLARATIONS;
