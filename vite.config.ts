import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  // Native modules and server-only packages stay outside the server bundle.
  ssr: { external: ["better-sqlite3", "@node-rs/argon2", "bullmq", "ioredis", "smpp", "nodemailer", "stripe"] },
});
