import { createContext, type KeyboardEvent, type ReactNode, useContext, useEffect, useId, useState } from "react";
import { LANGUAGES, type LanguageId } from "#app/api/code-examples.ts";
import { cn } from "#app/web/class-names.ts";
import { Code } from "#app/components/api/api-reference.tsx";
import { useHydrated } from "#app/components/use-hydrated.ts";

const STORAGE_KEY = "api-docs-language";
const isLanguage = (value: unknown): value is LanguageId => LANGUAGES.some((l) => l.id === value);

const LanguageContext = createContext<{ language: LanguageId; choose: (language: LanguageId) => void } | null>(null);

/** One language for every example on the page, remembered in the browser for the next visit. */
export function LanguageChoice({ children }: { children: ReactNode }) {
  const [language, setLanguage] = useState<LanguageId>("curl");
  useEffect(() => {
    const saved = window.localStorage.getItem(STORAGE_KEY);
    if (isLanguage(saved)) setLanguage(saved);
  }, []);
  const choose = (next: LanguageId) => {
    setLanguage(next);
    window.localStorage.setItem(STORAGE_KEY, next);
  };
  return <LanguageContext value={{ language, choose }}>{children}</LanguageContext>;
}

export type Example = { language: LanguageId; code: string };

/**
 * The same example in several languages. Without JavaScript they are stacked, each under its
 * name; with it, they become tabs (the page's LanguageChoice picks the same one everywhere).
 */
export function CodeTabs({
  examples,
  title,
  labels = {},
}: {
  examples: Example[];
  title: string;
  /** Tab names that differ from the language's (e.g. "Shell (openssl)"). */
  labels?: Partial<Record<LanguageId, string>>;
}) {
  const hydrated = useHydrated();
  const context = useContext(LanguageContext);
  const [ownLanguage, setOwnLanguage] = useState<LanguageId>(examples[0]?.language ?? "curl");
  const selected = context?.language ?? ownLanguage;
  const choose = context?.choose ?? setOwnLanguage;
  const id = useId();
  const label = (language: LanguageId) => labels[language] ?? LANGUAGES.find((l) => l.id === language)!.label;

  if (!hydrated) {
    return (
      <div data-testid="code-examples" className="space-y-3">
        <h4 className="text-sm font-semibold text-slate-800">{title}</h4>
        {examples.map((example) => (
          <div key={example.language}>
            <h5 className="mb-1 text-xs font-semibold tracking-wide text-slate-600 uppercase">
              {label(example.language)}
            </h5>
            <Code testId="code-example" language={example.language}>
              {example.code}
            </Code>
          </div>
        ))}
      </div>
    );
  }

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    if (!step) return;
    const next = examples[(index + step + examples.length) % examples.length].language;
    choose(next);
    document.getElementById(`${id}-tab-${next}`)?.focus();
  };

  return (
    <div data-testid="code-examples" className="space-y-2">
      <h4 className="text-sm font-semibold text-slate-800">{title}</h4>
      <div role="tablist" aria-label={`${title}: language`} className="flex flex-wrap gap-1">
        {examples.map((example, index) => {
          const active = example.language === selected;
          return (
            <button
              key={example.language}
              id={`${id}-tab-${example.language}`}
              type="button"
              role="tab"
              aria-selected={active}
              aria-controls={`${id}-panel-${example.language}`}
              tabIndex={active ? 0 : -1}
              onClick={() => choose(example.language)}
              onKeyDown={(event) => onKeyDown(event, index)}
              className={cn(
                "rounded-t-md px-3 py-1.5 text-sm font-medium",
                active ? "bg-slate-900 text-white" : "bg-slate-100 text-slate-700 hover:bg-slate-200",
              )}
            >
              {label(example.language)}
            </button>
          );
        })}
      </div>
      {examples.map((example) => (
        <div
          key={example.language}
          id={`${id}-panel-${example.language}`}
          role="tabpanel"
          aria-labelledby={`${id}-tab-${example.language}`}
          hidden={example.language !== selected}
        >
          <Code testId="code-example" language={example.language}>
            {example.code}
          </Code>
        </div>
      ))}
    </div>
  );
}
