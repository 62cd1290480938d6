/**
 * ts-morph's TypeScript namespace, for the scanner's ES modules. Imported
 * from here (a CommonJS file) rather than from "ts-morph" itself, Node does
 * not lex ts-morph's megabytes of CommonJS for named exports or test them for
 * ES module syntax on every run: the start of a scan is about 0.1 s shorter.
 */
import tsMorph = require("ts-morph");

export import ts = tsMorph.ts;
