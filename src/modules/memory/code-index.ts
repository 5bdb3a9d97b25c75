// Indexing a checked-out codebase (pure over files): documents cut into headings and paragraphs,
// JavaScript and TypeScript cut into symbols with @babel/parser (functions, classes and their
// methods, interfaces, type aliases, enums, exported variables), each with its file and line.
import { parse } from '@babel/parser'

export type Chunk = { path: string; line: number; endLine: number; kind: string; name: string; text: string }

const DOCUMENT = /\.(md|markdown|mdx|txt|rst|adoc)$/i
const SCRIPT = /\.(js|jsx|mjs|cjs|ts|tsx|mts|cts)$/i
export const isIndexable = (path: string) => DOCUMENT.test(path) || SCRIPT.test(path)

const MAX_TEXT = 1200

export function chunkFile(path: string, content: string): Chunk[] {
  if (DOCUMENT.test(path)) return chunkDocument(path, content)
  if (SCRIPT.test(path)) return chunkScript(path, content)
  return []
}

function chunkDocument(path: string, content: string): Chunk[] {
  const chunks: Chunk[] = []
  const lines = content.split(/\r?\n/)
  let paragraph: string[] = []
  let paragraphStart = 0
  let heading = ''
  const flush = (end: number) => {
    const text = paragraph.join(' ').trim()
    if (text) chunks.push({ path, line: paragraphStart + 1, endLine: end, kind: 'paragraph', name: heading, text: text.slice(0, MAX_TEXT) })
    paragraph = []
  }
  lines.forEach((line, index) => {
    const title = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line)
    if (title) {
      flush(index)
      heading = title[1]!
      chunks.push({ path, line: index + 1, endLine: index + 1, kind: 'heading', name: heading, text: heading })
      return
    }
    if (line.trim() === '') return flush(index)
    if (paragraph.length === 0) paragraphStart = index
    paragraph.push(line.trim())
  })
  flush(lines.length)
  return chunks
}

type Node = { type: string; loc?: { start: { line: number }; end: { line: number } } | null; leadingComments?: { value: string }[] | null; [key: string]: unknown }

const commentOf = (node: Node) => (node.leadingComments ?? []).map((comment) => comment.value.replace(/^\*|\n\s*\*\s?/g, ' ').trim()).join(' ').trim()
const nameOf = (node: unknown): string | undefined => {
  const id = (node as { id?: { name?: string }; key?: { name?: string; value?: string } })
  return id.id?.name ?? id.key?.name ?? id.key?.value
}

function chunkScript(path: string, content: string): Chunk[] {
  let program: { body: Node[] }
  try {
    const plugins: ('typescript' | 'jsx' | 'decorators-legacy')[] = /\.(ts|mts|cts)$/i.test(path) ? ['typescript', 'decorators-legacy'] : ['typescript', 'jsx', 'decorators-legacy']
    program = parse(content, { sourceType: 'unambiguous', errorRecovery: true, plugins, attachComment: true }).program as unknown as { body: Node[] }
  } catch {
    return []
  }
  const lines = content.split(/\r?\n/)
  const chunks: Chunk[] = []
  const add = (node: Node, kind: string, name: string, owner?: Node) => {
    if (!node.loc) return
    const line = node.loc.start.line
    const signature = (lines[line - 1] ?? '').trim()
    const comment = commentOf(owner ?? node)
    chunks.push({ path, line, endLine: node.loc.end.line, kind, name, text: [comment, signature].filter(Boolean).join('\n').slice(0, MAX_TEXT) })
  }
  const visit = (statement: Node, owner?: Node) => {
    switch (statement.type) {
      case 'ExportNamedDeclaration':
      case 'ExportDefaultDeclaration':
        if (statement.declaration) visit(statement.declaration as Node, statement)
        return
      case 'FunctionDeclaration':
      case 'TSDeclareFunction':
        return add(statement, 'function', nameOf(statement) ?? 'default', owner)
      case 'ClassDeclaration': {
        add(statement, 'class', nameOf(statement) ?? 'default', owner)
        const body = (statement.body as { body: Node[] }).body
        for (const member of body) {
          const name = nameOf(member)
          if (name && (member.type === 'ClassMethod' || member.type === 'TSDeclareMethod')) add(member, 'method', `${nameOf(statement) ?? 'default'}.${name}`)
        }
        return
      }
      case 'TSInterfaceDeclaration':
        return add(statement, 'interface', nameOf(statement) ?? '', owner)
      case 'TSTypeAliasDeclaration':
        return add(statement, 'type', nameOf(statement) ?? '', owner)
      case 'TSEnumDeclaration':
        return add(statement, 'enum', nameOf(statement) ?? '', owner)
      case 'VariableDeclaration':
        for (const declaration of statement.declarations as Node[]) {
          const name = (declaration.id as { name?: string }).name
          const init = declaration.init as Node | null
          const isFunction = init && (init.type === 'ArrowFunctionExpression' || init.type === 'FunctionExpression')
          if (name && (owner || isFunction)) add(declaration, isFunction ? 'function' : 'variable', name, owner ?? statement)
        }
        return
      default:
    }
  }
  for (const statement of program.body) visit(statement)
  return chunks
}
