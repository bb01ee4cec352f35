#!/usr/bin/env dotnet
// Adds CloneCopy to a repository of your own, from a clone of this one (README "Adding CloneCopy",
// docs/adding-clonecopy.md):
//
//   dotnet run scripts/add-clonecopy.cs -- path/to/your-repository
//
// Packs CloneCopy (dotnet pack src/CloneCopy -c Release -o artifacts/packages), copies the package into the
// repository's folder feed local-packages/, and writes the three entries an MSBuild SDK needs, each merged into
// the file the repository already has (nothing else in it changes), or in a new file where it has none:
//   NuGet.config           the feed (<add key="clonecopy" value="local-packages" />), and where the file maps
//                          packages to sources (<packageSourceMapping>), CloneCopy to that feed;
//   global.json            "msbuild-sdks": { "CloneCopy": "<the version packed>" }: the version lives here only;
//   Directory.Build.props  <Sdk Name="CloneCopy" />: every project of the repository.
// It says what it did to each file. Files it cannot merge (not XML or JSON, a feed named clonecopy elsewhere) are
// found before anything is packed or written, and named with what to do.
//
// A C# file rather than a shell script: it runs wherever the .NET SDK does (Windows too), and it edits the files
// as text at the places an XML or JSON reader found, so a repository's formatting, comments, encoding and line
// endings stay as they were.
#:property PublishAot=false

using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Text;
using System.Text.Json;
using System.Xml;

if (args.Length != 1 || args[0].StartsWith('-'))
{
    Console.Error.WriteLine(Report.Usage);
    return 2;
}

try
{
    string clone = CloneCopyClone.Root();
    string repository = Path.GetFullPath(args[0]);
    if (!Directory.Exists(repository))
    {
        throw new UserError($"{repository} is no folder. Give the root folder of your repository (where its solution is). {Report.Usage}");
    }

    // Everything that could refuse is read first: a file that cannot be merged stops the script before the pack.
    var nugetConfig = new NuGetConfigEntry(repository);
    var globalJson = new GlobalJsonEntry(repository);
    var buildProps = new DirectoryBuildPropsEntry(repository);

    string package = CloneCopyClone.Pack(clone);
    string version = CloneCopyClone.VersionOf(package);

    Console.WriteLine($"== adding CloneCopy {version} to {repository}");
    string feed = Path.Combine(repository, RepositoryFeed.Folder);
    Directory.CreateDirectory(feed);
    string copied = Path.Combine(feed, Path.GetFileName(package));
    File.Copy(package, copied, overwrite: true);
    Report.Line($"{RepositoryFeed.Folder}/{Path.GetFileName(package)}", "copied: the folder feed the SDK resolver restores CloneCopy from" + GitIgnored.Advice(repository, copied));
    Report.Line(nugetConfig.FileName, nugetConfig.Apply());
    Report.Line(GlobalJsonEntry.FileName, globalJson.Apply(version));
    Report.Line(DirectoryBuildPropsEntry.FileName, buildProps.Apply());
    Console.WriteLine($"Every project of {repository} now builds with CloneCopy {version}: each gets a summary line,");
    Console.WriteLine("\"CloneCopy: N files cloned (… not written) [Project]\" (in a terminal with -tl:off or -v:d; README \"Is it working?\").");
    Console.WriteLine("Commit these files, so that everyone building the repository gets the same.");
    return 0;
}
catch (UserError error)
{
    Console.Error.WriteLine($"add-clonecopy: {error.Message}");
    return 1;
}

/// <summary>A refusal the user can act on: printed as it is, without a stack trace.</summary>
internal sealed class UserError(string message) : Exception(message);

internal static class Report
{
    public const string Usage = "usage: dotnet run scripts/add-clonecopy.cs -- path/to/your-repository";

    public static void Line(string file, string what) => Console.WriteLine($"  {file}: {what}");
}

/// <summary>The repository's own feed: a folder beside its NuGet.config, so the repository needs nothing outside itself.</summary>
internal static class RepositoryFeed
{
    public const string Folder = "local-packages";
    public const string Key = "clonecopy";
}

/// <summary>The clone of CloneCopy this script runs from, and its pack.</summary>
internal static class CloneCopyClone
{
    public static string Root()
    {
        // A file-based app is told where its file is; the clone is the folder above scripts/.
        string? scripts = AppContext.GetData("EntryPointFileDirectoryPath") as string;
        string root = scripts is null ? Directory.GetCurrentDirectory() : Path.GetFullPath(Path.Combine(scripts, ".."));
        if (!File.Exists(Path.Combine(root, "src", "CloneCopy", "CloneCopy.csproj")))
        {
            throw new UserError($"{root} is not a clone of CloneCopy (no src/CloneCopy/CloneCopy.csproj). Run this from the clone: {Report.Usage}");
        }

        return root;
    }

    /// <summary>
    /// dotnet pack, its output shown as it comes. The first pack of a clone takes minutes: it restores, builds the task
    /// for three hosts and compiles four ReadyToRun images; a pack with nothing changed takes seconds.
    /// </summary>
    public static string Pack(string clone)
    {
        string packages = Path.Combine(clone, "artifacts", "packages");
        Directory.CreateDirectory(packages);
        // Every commit packs its own version: the packages of other commits go, so the one left is this pack's.
        foreach (string old in Packages(packages))
        {
            File.Delete(old);
        }

        Console.WriteLine("== packing CloneCopy: dotnet pack src/CloneCopy -c Release -o artifacts/packages");
        Console.WriteLine("   (minutes the first time, 6 on a busy 2-core machine: the task for three kinds of MSBuild host, four of them");
        Console.WriteLine("   compiled ahead of time; seconds when nothing changed. docs/adding-clonecopy.md#packing-it)");
        var start = new ProcessStartInfo("dotnet") { WorkingDirectory = clone, UseShellExecute = false };
        foreach (string argument in new[] { "pack", "src/CloneCopy", "-c", "Release", "-o", "artifacts/packages", "-nologo" })
        {
            start.ArgumentList.Add(argument);
        }

        using Process pack = Process.Start(start) ?? throw new UserError("could not start dotnet");
        pack.WaitForExit();
        string[] packed = Packages(packages);
        if (pack.ExitCode != 0 || packed.Length != 1)
        {
            throw new UserError($"dotnet pack src/CloneCopy failed (exit code {pack.ExitCode}): read its errors above; nothing was written to the repository.");
        }

        return packed[0];
    }

    /// <summary>CloneCopy.1.0.0-alpha.0.5.nupkg: the version is the file name's; the digit keeps CloneCopy.BuildCompare out.</summary>
    public static string VersionOf(string package) => Path.GetFileNameWithoutExtension(package)["CloneCopy.".Length..];

    private static string[] Packages(string folder) =>
        Directory.GetFiles(folder, "CloneCopy.*.nupkg").Where(p => char.IsAsciiDigit(Path.GetFileName(p)["CloneCopy.".Length])).ToArray();
}

/// <summary>Whether git would leave the package out of a commit (the usual .NET .gitignore ignores *.nupkg).</summary>
internal static class GitIgnored
{
    public static string Advice(string repository, string file)
    {
        try
        {
            var start = new ProcessStartInfo("git") { WorkingDirectory = repository, UseShellExecute = false, RedirectStandardOutput = true, RedirectStandardError = true };
            foreach (string argument in new[] { "check-ignore", "-q", file })
            {
                start.ArgumentList.Add(argument);
            }

            using Process? git = Process.Start(start);
            if (git is null)
            {
                return string.Empty;
            }

            git.WaitForExit();
            return git.ExitCode == 0 ? $" (your .gitignore ignores it: commit it with git add -f {RepositoryFeed.Folder}/{Path.GetFileName(file)})" : string.Empty;
        }
        catch (System.ComponentModel.Win32Exception)
        {
            return string.Empty;   // no git: nothing to advise
        }
    }
}

/// <summary>A file read as text, changed by insertions and replacements at offsets, written back with its own encoding.</summary>
internal sealed class TextFile
{
    private readonly List<(int Offset, int Length, string Text)> _edits = [];
    private readonly bool _byteOrderMark;

    public TextFile(string path)
    {
        Path = path;
        byte[] bytes = File.ReadAllBytes(path);
        _byteOrderMark = bytes.AsSpan().StartsWith(Encoding.UTF8.Preamble);
        Text = Encoding.UTF8.GetString(bytes.AsSpan(_byteOrderMark ? 3 : 0));
        NewLine = Text.Contains("\r\n", StringComparison.Ordinal) ? "\r\n" : "\n";
    }

    public string Path { get; }

    public string Text { get; }

    public string NewLine { get; }

    public bool Changed => _edits.Count > 0;

    public void Replace(int offset, int length, string text) => _edits.Add((offset, length, text));

    public void Insert(int offset, string text) => Replace(offset, 0, text);

    public void Save()
    {
        var result = new StringBuilder(Text);
        foreach (var (offset, length, text) in _edits.OrderByDescending(e => e.Offset))
        {
            result.Remove(offset, length).Insert(offset, text);
        }

        File.WriteAllText(Path, result.ToString(), new UTF8Encoding(_byteOrderMark));
    }

    /// <summary>The whitespace that begins the line holding <paramref name="offset"/>, if only whitespace precedes it there.</summary>
    public string? IndentBefore(int offset)
    {
        int start = offset;
        while (start > 0 && Text[start - 1] is ' ' or '\t')
        {
            start--;
        }

        return start == 0 || Text[start - 1] is '\n' or '\r' ? Text[start..offset] : null;
    }

    /// <summary>Where the line holding <paramref name="offset"/> begins.</summary>
    public int LineStart(int offset)
    {
        int start = offset;
        while (start > 0 && Text[start - 1] is not ('\n' or '\r'))
        {
            start--;
        }

        return start;
    }

    /// <summary>The nearest file of that name in a folder above the repository: one created in the repository hides it.</summary>
    public static string? InFolderAbove(string repository, string name)
    {
        for (DirectoryInfo? folder = Directory.GetParent(repository); folder is not null; folder = folder.Parent)
        {
            string candidate = System.IO.Path.Combine(folder.FullName, name);
            if (File.Exists(candidate))
            {
                return candidate;
            }
        }

        return null;
    }
}

/// <summary>An XML element as an XmlReader met it, located in the file's text.</summary>
internal sealed record XmlElementAt(string Path, int Start, int? EndTag, bool Empty, Dictionary<string, string> Attributes, int Depth);

/// <summary>Reads an XML file's elements with the offsets of their start and end tags.</summary>
internal static class XmlLayout
{
    public static List<XmlElementAt> Read(TextFile file)
    {
        int[] lineStarts = LineStarts(file.Text);
        var elements = new List<XmlElementAt>();
        var open = new Stack<(XmlElementAt Element, int Index)>();
        try
        {
            using var reader = XmlReader.Create(new StringReader(file.Text), new XmlReaderSettings { DtdProcessing = DtdProcessing.Prohibit });
            var info = (IXmlLineInfo)reader;
            while (reader.Read())
            {
                if (reader.NodeType == XmlNodeType.Element)
                {
                    // LinePosition is the name's first character: the tag's '<' is just before it.
                    int start = lineStarts[info.LineNumber - 1] + info.LinePosition - 2;
                    string path = (open.Count == 0 ? string.Empty : open.Peek().Element.Path + "/") + reader.LocalName;
                    var attributes = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
                    bool empty = reader.IsEmptyElement;
                    int depth = reader.Depth;
                    while (reader.MoveToNextAttribute())
                    {
                        attributes[reader.LocalName] = reader.Value;
                    }

                    var element = new XmlElementAt(path, start, null, empty, attributes, depth);
                    elements.Add(element);
                    if (!empty)
                    {
                        open.Push((element, elements.Count - 1));
                    }
                }
                else if (reader.NodeType == XmlNodeType.EndElement)
                {
                    var (element, index) = open.Pop();
                    // For an end tag the name follows "</".
                    elements[index] = element with { EndTag = lineStarts[info.LineNumber - 1] + info.LinePosition - 3 };
                }
            }
        }
        catch (XmlException error)
        {
            throw new UserError($"{file.Path} is not XML that can be read ({error.Message}); fix it, or add CloneCopy by hand (docs/adding-clonecopy.md).");
        }

        return elements;
    }

    /// <summary>The offset of the '>' that ends the start tag beginning at <paramref name="start"/> (quoted values skipped).</summary>
    public static int StartTagEnd(string text, int start)
    {
        char quote = '\0';
        for (int i = start; i < text.Length; i++)
        {
            char c = text[i];
            if (quote != '\0')
            {
                quote = c == quote ? '\0' : quote;
            }
            else if (c is '"' or '\'')
            {
                quote = c;
            }
            else if (c == '>')
            {
                return i;
            }
        }

        return text.Length;
    }

    /// <summary>
    /// Inserts <paramref name="element"/> as the last child of <paramref name="parent"/>: on a line of its own, indented
    /// one step more than the parent's end tag, where that end tag is on a line of its own; else just before it.
    /// </summary>
    public static void AppendChild(TextFile file, XmlElementAt parent, string element, string step)
    {
        int endTag = parent.EndTag ?? throw new UserError($"{file.Path}: <{parent.Path}> is empty (<{parent.Path} />); add CloneCopy by hand (docs/adding-clonecopy.md).");
        string? indent = file.IndentBefore(endTag);
        if (indent is null)
        {
            // A file written on one line stays on one line.
            file.Insert(endTag, element.Replace("\n" + step, string.Empty, StringComparison.Ordinal).Replace("\n", string.Empty, StringComparison.Ordinal));
        }
        else
        {
            file.Insert(file.LineStart(endTag), indent + step + element.Replace("\n", file.NewLine + indent + step, StringComparison.Ordinal) + file.NewLine);
        }
    }

    /// <summary>One step of indentation, as the file's first nested element has it (two spaces where nothing says).</summary>
    public static string IndentStep(TextFile file, List<XmlElementAt> elements)
    {
        XmlElementAt? root = elements.FirstOrDefault();
        XmlElementAt? child = elements.FirstOrDefault(e => e.Depth == 1);
        string? rootIndent = root is null ? null : file.IndentBefore(root.Start);
        string? childIndent = child is null ? null : file.IndentBefore(child.Start);
        return rootIndent is not null && childIndent is not null && childIndent.Length > rootIndent.Length && childIndent.StartsWith(rootIndent, StringComparison.Ordinal)
            ? childIndent[rootIndent.Length..]
            : "  ";
    }

    private static int[] LineStarts(string text)
    {
        // As XmlReader counts lines: "\r\n", "\n" and "\r" each end one.
        var starts = new List<int> { 0 };
        for (int i = 0; i < text.Length; i++)
        {
            if (text[i] == '\n' || (text[i] == '\r' && (i + 1 == text.Length || text[i + 1] != '\n')))
            {
                starts.Add(i + 1);
            }
        }

        return starts.ToArray();
    }
}

/// <summary>
/// NuGet.config: the feed, and a mapping for CloneCopy where the file maps packages to sources (with a mapping,
/// NuGet asks a feed only for the packages mapped to it: without one, every project fails with MSB4236).
/// </summary>
internal sealed class NuGetConfigEntry
{
    private static readonly string[] NamesNuGetReads = ["nuget.config", "NuGet.config", "NuGet.Config"];
    private readonly string _repository;
    private readonly TextFile? _file;
    private readonly List<XmlElementAt> _elements = [];

    public NuGetConfigEntry(string repository)
    {
        _repository = repository;
        // The names NuGet looks for in a folder, in its order.
        string? existing = NamesNuGetReads.Select(n => Path.Combine(repository, n)).FirstOrDefault(File.Exists);
        FileName = existing is null ? "NuGet.config" : Path.GetFileName(existing);
        if (existing is null)
        {
            return;
        }

        _file = new TextFile(existing);
        _elements = XmlLayout.Read(_file);
        XmlElementAt? ours = Sources().FirstOrDefault(e => e.Attributes.GetValueOrDefault("key") == RepositoryFeed.Key);
        if (ours is not null && ours.Attributes.GetValueOrDefault("value")?.TrimEnd('/', '\\') != RepositoryFeed.Folder)
        {
            throw new UserError($"{existing} already has a package source named '{RepositoryFeed.Key}' ({ours.Attributes.GetValueOrDefault("value")}); rename or remove it, then run this again.");
        }

        if (_elements.FirstOrDefault() is not { Path: "configuration" })
        {
            throw new UserError($"{existing} has no <configuration> element; fix it, or add CloneCopy by hand (docs/adding-clonecopy.md).");
        }
    }

    public string FileName { get; }

    public string Apply()
    {
        if (_file is null)
        {
            File.WriteAllText(Path.Combine(_repository, FileName), $"""
                <?xml version="1.0" encoding="utf-8"?>
                <configuration>
                  <packageSources>
                    <add key="{RepositoryFeed.Key}" value="{RepositoryFeed.Folder}" />
                  </packageSources>
                </configuration>

                """.Replace("\r\n", "\n", StringComparison.Ordinal));
            return $"created, with the feed '{RepositoryFeed.Key}' ({RepositoryFeed.Folder}); your other NuGet settings still apply";
        }

        var said = new List<string>();
        string step = XmlLayout.IndentStep(_file, _elements);
        string source = $"<add key=\"{RepositoryFeed.Key}\" value=\"{RepositoryFeed.Folder}\" />";
        if (Sources().Any(e => e.Attributes.GetValueOrDefault("key") == RepositoryFeed.Key))
        {
            said.Add($"already has the feed '{RepositoryFeed.Key}'");
        }
        else if (Find("configuration/packageSources") is { } sources)
        {
            XmlLayout.AppendChild(_file, sources, source, step);
            said.Add($"the feed '{RepositoryFeed.Key}' ({RepositoryFeed.Folder}) added to <packageSources>" + (Find("configuration/packageSources/clear") is null ? string.Empty : ", after its <clear />"));
        }
        else
        {
            XmlLayout.AppendChild(_file, Find("configuration")!, $"<packageSources>\n{step}{source}\n</packageSources>", step);
            said.Add($"<packageSources> with the feed '{RepositoryFeed.Key}' ({RepositoryFeed.Folder}) added");
        }

        if (Find("configuration/packageSourceMapping") is { } mapping)
        {
            XmlElementAt? ourMapping = _elements.FirstOrDefault(e => e.Path == "configuration/packageSourceMapping/packageSource" && e.Attributes.GetValueOrDefault("key") == RepositoryFeed.Key);
            bool mapped = ourMapping is not null && _elements.Any(e => e.Path == "configuration/packageSourceMapping/packageSource/package"
                && e.Start > ourMapping.Start && e.Start < (ourMapping.EndTag ?? ourMapping.Start) && string.Equals(e.Attributes.GetValueOrDefault("pattern"), "CloneCopy", StringComparison.OrdinalIgnoreCase));
            if (mapped)
            {
                said.Add("already maps CloneCopy to it");
            }
            else if (ourMapping is not null)
            {
                XmlLayout.AppendChild(_file, ourMapping, "<package pattern=\"CloneCopy\" />", step);
                said.Add("CloneCopy mapped to it in <packageSourceMapping>");
            }
            else
            {
                XmlLayout.AppendChild(_file, mapping, $"<packageSource key=\"{RepositoryFeed.Key}\">\n{step}<package pattern=\"CloneCopy\" />\n</packageSource>", step);
                said.Add("CloneCopy mapped to it in <packageSourceMapping>");
            }
        }

        if (!_file.Changed)
        {
            return string.Join("; ", said) + "; unchanged";
        }

        _file.Save();
        return string.Join("; ", said) + "; nothing else changed";
    }

    private IEnumerable<XmlElementAt> Sources() => _elements.Where(e => e.Path == "configuration/packageSources/add");

    private XmlElementAt? Find(string path) => _elements.FirstOrDefault(e => e.Path == path);
}

/// <summary>Directory.Build.props: &lt;Sdk Name="CloneCopy" /&gt;, which every project of the repository imports.</summary>
internal sealed class DirectoryBuildPropsEntry
{
    public const string FileName = "Directory.Build.props";
    private const string Element = "<Sdk Name=\"CloneCopy\" />";
    private readonly string _path;
    private readonly TextFile? _file;
    private readonly List<XmlElementAt> _elements = [];

    public DirectoryBuildPropsEntry(string repository)
    {
        _path = Path.Combine(repository, FileName);
        if (!File.Exists(_path))
        {
            return;
        }

        _file = new TextFile(_path);
        _elements = XmlLayout.Read(_file);
        if (_elements.FirstOrDefault() is not { Path: "Project" })
        {
            throw new UserError($"{_path} has no <Project> element; fix it, or add CloneCopy by hand (docs/adding-clonecopy.md).");
        }
    }

    public string Apply()
    {
        if (_file is null)
        {
            File.WriteAllText(_path, $"<Project>\n  {Element}\n</Project>\n");
            string? above = TextFile.InFolderAbove(Path.GetDirectoryName(_path)!, FileName);
            return "created" + (above is null ? string.Empty : $". Note: MSBuild imports only the nearest Directory.Build.props, so {above} is no longer imported here; import it from this one if the repository needs it");
        }

        bool has = _elements.Any(e => (e.Path == "Project/Sdk" && string.Equals(e.Attributes.GetValueOrDefault("Name"), "CloneCopy", StringComparison.OrdinalIgnoreCase))
            || (e.Path == "Project/Import" && string.Equals(e.Attributes.GetValueOrDefault("Sdk"), "CloneCopy", StringComparison.OrdinalIgnoreCase)));
        if (has)
        {
            return "already has CloneCopy's <Sdk> element; unchanged";
        }

        XmlElementAt project = _elements[0];
        string step = XmlLayout.IndentStep(_file, _elements);
        int tagEnd = XmlLayout.StartTagEnd(_file.Text, project.Start);
        if (project.Empty)
        {
            // <Project /> becomes <Project> with the element inside.
            int slash = _file.Text.LastIndexOf('/', tagEnd);
            _file.Replace(slash, tagEnd + 1 - slash, $">{_file.NewLine}{step}{Element}{_file.NewLine}</Project>");
        }
        else
        {
            _file.Insert(tagEnd + 1, $"{_file.NewLine}{(_file.IndentBefore(project.Start) ?? string.Empty) + step}{Element}");
        }

        _file.Save();
        return $"{Element} added as the first element of <Project>; nothing else changed";
    }
}

/// <summary>global.json: "msbuild-sdks": { "CloneCopy": "version" }, the one place the version is written.</summary>
internal sealed class GlobalJsonEntry
{
    public const string FileName = "global.json";
    private readonly string _path;
    private readonly TextFile? _file;
    private readonly JsonLayout? _layout;

    public GlobalJsonEntry(string repository)
    {
        _path = Path.Combine(repository, FileName);
        if (!File.Exists(_path))
        {
            return;
        }

        _file = new TextFile(_path);
        _layout = JsonLayout.Read(_file);
    }

    public string Apply(string version)
    {
        string entry = $"\"CloneCopy\": \"{version}\"";
        if (_file is null || _layout is null)
        {
            File.WriteAllText(_path, $"{{\n  \"msbuild-sdks\": {{\n    {entry}\n  }}\n}}\n");
            string? above = TextFile.InFolderAbove(Path.GetDirectoryName(_path)!, FileName);
            return $"created with {entry} under \"msbuild-sdks\""
                + (above is null ? string.Empty : $". Note: the nearest global.json wins, so {above} no longer applies here (its \"sdk\" pin too); copy what it says into this one if the repository needs it");
        }

        if (_layout.CloneCopyValue is { } value)
        {
            string old = _file.Text[value.Start..value.End];
            if (old == $"\"{version}\"")
            {
                return $"already has {entry}; unchanged";
            }

            _file.Replace(value.Start, value.End - value.Start, $"\"{version}\"");
            _file.Save();
            return $"\"CloneCopy\" changed from {old} to \"{version}\"; nothing else changed";
        }

        if (_layout.Sdks is { } sdks)
        {
            JsonLayout.AddMember(_file, sdks, entry);
            _file.Save();
            return $"{entry} added to \"msbuild-sdks\"; nothing else changed";
        }

        JsonLayout.AddMember(_file, _layout.Root, $"\"msbuild-sdks\": {{ {entry} }}");
        _file.Save();
        return $"\"msbuild-sdks\": {{ {entry} }} added; nothing else changed";
    }
}

/// <summary>Offsets in a JSON file (comments and trailing commas allowed, as the .NET SDK reads global.json).</summary>
internal sealed class JsonLayout
{
    /// <summary>An object: where its '{' and '}' are, where its last member's value ends and that member's name begins.</summary>
    internal sealed record JsonObjectAt(int Open, int Close, int? LastValueEnd, int? LastNameStart);

    public required JsonObjectAt Root { get; init; }

    public JsonObjectAt? Sdks { get; init; }

    public (int Start, int End)? CloneCopyValue { get; init; }

    public static JsonLayout Read(TextFile file)
    {
        // The reader's offsets are in UTF-8 bytes; the edits are made in characters.
        byte[] utf8 = Encoding.UTF8.GetBytes(file.Text);
        var reader = new Utf8JsonReader(utf8, new JsonReaderOptions { CommentHandling = JsonCommentHandling.Skip, AllowTrailingCommas = true });
        var found = new Found(utf8);
        try
        {
            if (!reader.Read() || reader.TokenType != JsonTokenType.StartObject)
            {
                throw new UserError($"{file.Path} is not a JSON object; fix it, or add CloneCopy by hand (docs/adding-clonecopy.md).");
            }

            JsonObjectAt root = ReadObject(ref reader, string.Empty, found, file.Path);
            return new JsonLayout { Root = root, Sdks = found.Sdks, CloneCopyValue = found.CloneCopy };
        }
        catch (JsonException error)
        {
            throw new UserError($"{file.Path} is not JSON that can be read ({error.Message}); fix it, or add CloneCopy by hand (docs/adding-clonecopy.md).");
        }
    }

    /// <summary>
    /// Adds a member to an object: after its last member (a comma between; on a line of its own, indented as that
    /// member, where that member is on a line of its own), or inside an empty object.
    /// </summary>
    public static void AddMember(TextFile file, JsonObjectAt target, string member)
    {
        if (target.LastValueEnd is not int end)
        {
            file.Insert(target.Open + 1, $" {member} ");
            return;
        }

        string? indent = target.LastNameStart is int name ? file.IndentBefore(name) : null;
        file.Insert(end, indent is null ? $", {member}" : $",{file.NewLine}{indent}{member}");
    }

    /// <summary>Reads one object, the reader on its '{', and leaves the reader on its '}'.</summary>
    private static JsonObjectAt ReadObject(ref Utf8JsonReader reader, string path, Found found, string file)
    {
        int open = found.Chars(reader.TokenStartIndex);
        int? lastValueEnd = null, lastNameStart = null;
        while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
        {
            string name = reader.GetString() ?? string.Empty;
            int nameStart = found.Chars(reader.TokenStartIndex);
            reader.Read();
            int valueStart = found.Chars(reader.TokenStartIndex);
            if (reader.TokenType == JsonTokenType.StartObject)
            {
                JsonObjectAt inner = ReadObject(ref reader, $"{path}/{name}", found, file);
                if (path.Length == 0 && string.Equals(name, "msbuild-sdks", StringComparison.Ordinal))
                {
                    found.Sdks = inner;
                }
            }
            else if (reader.TokenType == JsonTokenType.StartArray)
            {
                reader.Skip();
            }
            else if (path == "/msbuild-sdks" && string.Equals(name, "CloneCopy", StringComparison.OrdinalIgnoreCase))
            {
                found.CloneCopy = reader.TokenType == JsonTokenType.String
                    ? (valueStart, found.Chars(reader.BytesConsumed))
                    : throw new UserError($"{file}: \"msbuild-sdks\" names CloneCopy without a version string; fix it, then run this again.");
            }

            lastValueEnd = found.Chars(reader.BytesConsumed);
            lastNameStart = nameStart;
        }

        return new JsonObjectAt(open, found.Chars(reader.TokenStartIndex), lastValueEnd, lastNameStart);
    }

    /// <summary>What the walk found, and the byte-to-character conversion of its offsets.</summary>
    private sealed class Found(byte[] utf8)
    {
        public JsonObjectAt? Sdks { get; set; }

        public (int Start, int End)? CloneCopy { get; set; }

        public int Chars(long bytes) => Encoding.UTF8.GetCharCount(utf8, 0, (int)bytes);
    }
}
