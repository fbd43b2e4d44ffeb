// The one function of @babel/standalone the nginx module generator calls (it ships no types).
declare module "@babel/standalone" {
  export function transform(
    code: string,
    options: Record<string, unknown>,
  ): { code?: string | null | undefined };
}
