import { Link } from "react-router";
import type { Block, Section } from "#app/modules/content/articles/article.ts";

const LINK = /\[([^\]]+)\]\((\/[^)\s]*)\)/g;

/** Plain text with `[label](/path)` turned into links inside the site. */
function InlineText({ text }: { text: string }) {
  const parts: React.ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(LINK)) {
    parts.push(text.slice(last, match.index));
    parts.push(
      <Link key={match.index} to={match[2]}>
        {match[1]}
      </Link>,
    );
    last = match.index + match[0].length;
  }
  parts.push(text.slice(last));
  return <>{parts}</>;
}

function BlockView({ block }: { block: Block }) {
  if (typeof block === "string") {
    return (
      <p className="mt-4 leading-7 text-slate-700">
        <InlineText text={block} />
      </p>
    );
  }
  if ("list" in block) {
    const Tag = block.ordered ? "ol" : "ul";
    return (
      <Tag className={`mt-4 space-y-2 pl-6 leading-7 text-slate-700 ${block.ordered ? "list-decimal" : "list-disc"}`}>
        {block.list.map((item) => (
          <li key={item} className="pl-1">
            <InlineText text={item} />
          </li>
        ))}
      </Tag>
    );
  }
  if ("code" in block) {
    return (
      <pre className="mt-4 overflow-x-auto rounded-md bg-slate-900 p-4 text-sm leading-6 text-slate-100">
        <code>{block.code}</code>
      </pre>
    );
  }
  return (
    <p className="mt-4 rounded-md bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200 ring-inset">
      <InlineText text={block.note} />
    </p>
  );
}

/** Sections of static content: a heading with an anchor id, then its blocks. */
export function Sections({ sections }: { sections: Section[] }) {
  return (
    <>
      {sections.map((section) => (
        <section key={section.id}>
          <h2 id={section.id} className="mt-10 scroll-mt-6 text-xl font-semibold tracking-tight text-slate-900">
            {section.heading}
          </h2>
          {section.blocks.map((block, i) => (
            <BlockView key={i} block={block} />
          ))}
        </section>
      ))}
    </>
  );
}
