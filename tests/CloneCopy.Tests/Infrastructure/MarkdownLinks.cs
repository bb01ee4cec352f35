using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text;
using System.Text.RegularExpressions;

namespace CloneCopy.Tests.Infrastructure;

/// <summary>
/// The relative links of the README and of every page under docs/, checked against the files and headings
/// they name (headings by GitHub's anchor rule), so that moving text between pages cannot leave a link dangling.
/// </summary>
public static class MarkdownLinks
{
    private static readonly Regex Link = new(@"\]\(([^)\s]+)\)", RegexOptions.Compiled);
    private static readonly Regex Heading = new(@"^#{1,6}\s+(.+?)\s*$", RegexOptions.Compiled | RegexOptions.Multiline);
    private static readonly Regex CodeBlock = new(@"^```.*?^```", RegexOptions.Compiled | RegexOptions.Multiline | RegexOptions.Singleline);

    /// <summary>"file: link" for each link whose file or heading does not exist.</summary>
    public static IReadOnlyList<string> Unresolved(string repositoryRoot)
    {
        var pages = new List<string> { Path.Combine(repositoryRoot, "README.md") };
        string docs = Path.Combine(repositoryRoot, "docs");
        if (Directory.Exists(docs))
        {
            pages.AddRange(Directory.EnumerateFiles(docs, "*.md", SearchOption.AllDirectories));
        }

        var unresolved = new List<string>();
        foreach (string page in pages)
        {
            string text = CodeBlock.Replace(File.ReadAllText(page), string.Empty);
            foreach (Match match in Link.Matches(text))
            {
                string target = match.Groups[1].Value;
                if (target.Contains("://", StringComparison.Ordinal) || target.StartsWith("mailto:", StringComparison.Ordinal))
                {
                    continue;
                }

                if (!Resolves(page, target))
                {
                    unresolved.Add($"{Path.GetRelativePath(repositoryRoot, page)}: {target}");
                }
            }
        }

        return unresolved;
    }

    private static bool Resolves(string page, string target)
    {
        int hash = target.IndexOf('#', StringComparison.Ordinal);
        string file = hash < 0 ? target : target[..hash];
        string? anchor = hash < 0 ? null : target[(hash + 1)..];
        string path = file.Length == 0 ? page : Path.GetFullPath(Path.Combine(Path.GetDirectoryName(page)!, file));
        if (!File.Exists(path) && !Directory.Exists(path))
        {
            return false;
        }

        return anchor is null || (File.Exists(path) && Anchors(File.ReadAllText(path)).Contains(anchor));
    }

    /// <summary>GitHub's anchors: the heading lower-cased, punctuation other than '-' and '_' dropped, spaces as '-'.</summary>
    private static HashSet<string> Anchors(string markdown)
    {
        var anchors = new HashSet<string>(StringComparer.Ordinal);
        foreach (Match match in Heading.Matches(CodeBlock.Replace(markdown, string.Empty)))
        {
            var slug = new StringBuilder();
            foreach (char c in match.Groups[1].Value.Trim().ToLowerInvariant())
            {
                if (char.IsLetterOrDigit(c) || c is '-' or '_')
                {
                    slug.Append(c);
                }
                else if (c == ' ')
                {
                    slug.Append('-');
                }
            }

            anchors.Add(slug.ToString());
        }

        return anchors;
    }
}
