import { href, Link } from "react-router";

export function Footer({ year }: { year: number }) {
  return (
    <footer className="mt-16 border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-4 px-4 py-6 text-sm text-slate-600">
        <p>&copy; {year} SMS Gateway. All rights reserved.</p>
        <nav aria-label="Footer" className="flex gap-4">
          <Link to={href("/sms/termsandconditions")}>Terms and Conditions</Link>
          <Link to={href("/sms/blog")}>Blog</Link>
          <Link to={href("/docs/api")}>API reference</Link>
          <Link to={href("/sms/contact")}>Contact</Link>
        </nav>
      </div>
    </footer>
  );
}
