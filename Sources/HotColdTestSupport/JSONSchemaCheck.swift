import Foundation

/// Validates JSON lines against one of the repository's schemas with Python's jsonschema (a
/// real implementation, not ours).
public enum JSONSchemaCheck {
    /// A description of the lines that fail `schema/<name>`; empty when all pass.
    public static func failures(_ lines: [String], schema name: String) throws -> String {
        let script = """
            import json, sys, jsonschema
            v = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
            bad = 0
            for n, line in enumerate(sys.stdin, 1):
                errs = list(v.iter_errors(json.loads(line)))
                if errs:
                    bad += 1
                    print(f"line {n}: {line.strip()[:160]}: {errs[0].message[:300]}")
            sys.exit(1 if bad else 0)
            """
        let r = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"),
                                   ["python3", "-c", script, TestData.repo("schema/\(name)").path],
                                   input: Data((lines.joined(separator: "\n") + "\n").utf8))
        return r.status == 0 ? "" : r.stdout + r.stderr
    }
}
