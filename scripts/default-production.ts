// Imported first by the start script: React and React Router pick their build by NODE_ENV when loaded.
process.env.NODE_ENV ??= "production";
