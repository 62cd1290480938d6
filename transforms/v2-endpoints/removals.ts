/** Removing an option or an argument while keeping the formatting of the object or call around it. */
import type { ASTPath, JSCodeshift } from "jscodeshift";

type Node = { type: string; [key: string]: unknown };

/**
 * Object properties and call arguments removed after printing: recast would
 * reprint a whole object or call when one of its items goes, so the item is
 * swapped for a unique placeholder that is cut out of the printed text with
 * its comma (or its whole line when it stands alone).
 */
export class Removals {
  private readonly names: string[] = [];

  constructor(private readonly source: string) {}

  private placeholder(): string {
    let name = `__comfydeployMigrateRemoved${this.names.length}__`;
    while (this.source.includes(name)) name = `_${name}`;
    this.names.push(name);
    return name;
  }

  property(j: JSCodeshift, property: ASTPath): void {
    // Same node type as the property it stands for, so recast patches it in place.
    const type = (property.node as Node).type === "Property" ? "property" : "objectProperty";
    const placeholder =
      type === "property"
        ? j.property("init", j.identifier(this.placeholder()), j.numericLiteral(0))
        : j.objectProperty(j.identifier(this.placeholder()), j.numericLiteral(0));
    property.replace(placeholder);
  }

  argument(j: JSCodeshift, argument: ASTPath): void {
    argument.replace(j.identifier(this.placeholder()));
  }

  get pending(): boolean {
    return this.names.length > 0;
  }

  cleanUp(printed: string): string {
    let out = printed;
    for (const name of this.names) {
      const item = `${name}(?:\\s*:\\s*0)?`;
      const patterns = [
        new RegExp(`^[ \\t]*${item},?[ \\t]*\\n`, "m"),
        new RegExp(`${item}\\s*,[ \\t]*`),
        new RegExp(`,\\s*${item}`),
        new RegExp(item),
      ];
      const pattern = patterns.find((p) => p.test(out))!;
      out = out.replace(pattern, "");
    }
    return out;
  }
}
