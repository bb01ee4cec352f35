using System;
using System.Collections.Generic;
using System.IO;
using System.IO.Compression;
using System.Linq;
using System.Reflection.Metadata;
using System.Reflection.PortableExecutable;
using System.Text;
using System.Xml.Linq;
using CloneCopy.Tests.Infrastructure;
using Xunit;

namespace CloneCopy.Tests.Integration;

/// <summary>
/// The package as a release makes it, checked by unpacking the .nupkg the tests build from this repository:
/// no build-machine path in any packed file, symbols in every task assembly, the package's metadata, and the
/// user README it carries.
/// </summary>
[Collection(BuiltProjectsCollection.Name)]
public sealed class PackageContentsTests
{
    private readonly PackedSdk _sdk;

    public PackageContentsTests(PackedSdk sdk) => _sdk = sdk;

    private string PackagePath => _sdk.PackagePath;

    [Fact]
    public void No_packed_file_names_a_folder_of_the_machine_that_built_it()
    {
        // The repository root is where every build-machine path in a build output starts (sources, obj/, the
        // PDB path); the home folder would catch a package cache or SDK path.
        string[] machinePaths = { _sdk.RepositoryRoot.TrimEnd('/'), Environment.GetFolderPath(Environment.SpecialFolder.UserProfile) };
        var offenders = new List<string>();
        foreach (var (name, bytes) in PackedFilesWithEmbeddedPdbs())
        {
            string text = Encoding.UTF8.GetString(bytes) + Encoding.Unicode.GetString(bytes);
            offenders.AddRange(machinePaths.Where(path => path.Length > 1 && text.Contains(path, StringComparison.Ordinal)).Select(path => $"{name}: {path}"));
        }

        Assert.Empty(offenders);
    }

    [Fact]
    public void Every_task_assembly_carries_its_symbols_with_mapped_source_paths()
    {
        var assemblies = Entries().Where(entry => entry.FullName.EndsWith(".dll", StringComparison.Ordinal)).ToList();
        Assert.Equal(7, assemblies.Count); // net8.0, net10.0 (+ linux-x64, win-x64 precompiled for .NET 10 and for .NET 11), netstandard2.0

        foreach (var entry in assemblies)
        {
            using var pe = new PEReader(new MemoryStream(ReadAll(entry)));
            var debugDirectory = pe.ReadDebugDirectory();
            var embedded = debugDirectory.Where(d => d.Type == DebugDirectoryEntryType.EmbeddedPortablePdb).ToList();
            Assert.True(embedded.Count == 1, $"{entry.FullName} has no embedded PDB");

            using var pdbProvider = pe.ReadEmbeddedPortablePdbDebugDirectoryData(embedded[0]);
            var pdb = pdbProvider.GetMetadataReader();
            var documents = pdb.Documents.Select(handle => pdb.GetString(pdb.GetDocument(handle).Name)).ToList();
            Assert.Contains(documents, document => document == "/_/src/CloneCopy/Copy.cs");
            Assert.All(documents, document => Assert.StartsWith("/_/", document));

            // The PDB path recorded in the assembly (what a debugger or a crash dump names) is mapped too.
            var codeView = debugDirectory.Single(d => d.Type == DebugDirectoryEntryType.CodeView);
            string pdbPath = pe.ReadCodeViewDebugDirectoryData(codeView).Path;
            Assert.True(pdbPath.StartsWith("/_/", StringComparison.Ordinal) || !pdbPath.Contains('/'), $"{entry.FullName}: PDB path {pdbPath}");
        }
    }

    [Fact]
    public void Every_task_assembly_carries_the_package_version_and_a_source_link_to_the_published_repository()
    {
        // Source Link's record in a portable PDB (its custom debug information kind).
        var sourceLinkKind = new Guid("CC110556-A091-4D38-9FEC-25AB9A351A6A");
        var nuspec = XDocument.Load(new MemoryStream(ReadAll(Entries().Single(e => e.FullName == "CloneCopy.nuspec"))));
        XNamespace ns = nuspec.Root!.GetDefaultNamespace();
        string version = nuspec.Root.Element(ns + "metadata")!.Element(ns + "version")!.Value;
        Assert.Equal(_sdk.Version, version);
        string commit = nuspec.Root.Element(ns + "metadata")!.Element(ns + "repository")!.Attribute("commit")!.Value;
        Assert.Matches("^[0-9a-f]{40}$", commit);

        foreach (var entry in Entries().Where(entry => entry.FullName.EndsWith(".dll", StringComparison.Ordinal)))
        {
            using var pe = new PEReader(new MemoryStream(ReadAll(entry)));
            var metadata = pe.GetMetadataReader();
            string? informational = metadata.GetAssemblyDefinition().GetCustomAttributes()
                .Select(metadata.GetCustomAttribute)
                .Where(attribute => AttributeName(metadata, attribute) == "AssemblyInformationalVersionAttribute")
                .Select(attribute => attribute.DecodeValue(new StringOnlyAttributeDecoder()).FixedArguments[0].Value as string)
                .SingleOrDefault();
            Assert.True(informational == version, $"{entry.FullName}: informational version {informational}, the package {version}");

            var embedded = pe.ReadDebugDirectory().Single(d => d.Type == DebugDirectoryEntryType.EmbeddedPortablePdb);
            using var pdbProvider = pe.ReadEmbeddedPortablePdbDebugDirectoryData(embedded);
            var pdb = pdbProvider.GetMetadataReader();
            string? sourceLink = pdb.CustomDebugInformation.Select(pdb.GetCustomDebugInformation)
                .Where(info => pdb.GetGuid(info.Kind) == sourceLinkKind)
                .Select(info => Encoding.UTF8.GetString(pdb.GetBlobBytes(info.Value)))
                .SingleOrDefault();
            Assert.True(sourceLink is not null, $"{entry.FullName} has no Source Link");
            Assert.Contains($"\"/_/*\":\"https://raw.githubusercontent.com/clonecopy/clonecopy/{commit}/*\"", sourceLink, StringComparison.Ordinal);
        }
    }

    [Fact]
    public void The_nuspec_has_the_license_expression_repository_project_url_and_readme()
    {
        var entry = Entries().Single(e => e.FullName == "CloneCopy.nuspec");
        var nuspec = XDocument.Load(new MemoryStream(ReadAll(entry)));
        XNamespace ns = nuspec.Root!.GetDefaultNamespace();
        var metadata = nuspec.Root.Element(ns + "metadata")!;

        var license = metadata.Element(ns + "license")!;
        Assert.Equal("expression", license.Attribute("type")?.Value);
        Assert.Equal("MIT", license.Value);
        Assert.StartsWith("https://", metadata.Element(ns + "repository")?.Attribute("url")?.Value);
        Assert.Equal("git", metadata.Element(ns + "repository")?.Attribute("type")?.Value);
        Assert.StartsWith("https://", metadata.Element(ns + "projectUrl")?.Value);
        Assert.Equal("README.md", metadata.Element(ns + "readme")?.Value);
        Assert.Equal("MSBuildSdk", metadata.Element(ns + "packageTypes")?.Element(ns + "packageType")?.Attribute("name")?.Value);
    }

    [Fact]
    public void The_package_carries_the_user_readme_whose_links_resolve()
    {
        var entry = Entries().Single(e => e.FullName == "README.md");
        string packed = Encoding.UTF8.GetString(ReadAll(entry));
        string readme = File.ReadAllText(Path.Combine(_sdk.RepositoryRoot, "README.md"));

        Assert.Equal(readme, packed);
        int lines = readme.Split('\n').Length;
        Assert.True(lines <= 250, $"README.md has {lines} lines; at most 250 (the rest belongs in docs/)");
        Assert.Empty(MarkdownLinks.Unresolved(_sdk.RepositoryRoot));
    }

    private IEnumerable<ZipArchiveEntry> Entries()
    {
        var archive = ZipFile.OpenRead(PackagePath);
        return archive.Entries.Where(entry => !entry.FullName.EndsWith('/'));
    }

    /// <summary>Every packed file's bytes, and each assembly's embedded PDB decompressed (its paths are compressed in the file).</summary>
    private IEnumerable<(string Name, byte[] Bytes)> PackedFilesWithEmbeddedPdbs()
    {
        foreach (var entry in Entries())
        {
            byte[] bytes = ReadAll(entry);
            yield return (entry.FullName, bytes);
            if (!entry.FullName.EndsWith(".dll", StringComparison.Ordinal))
            {
                continue;
            }

            using var pe = new PEReader(new MemoryStream(bytes));
            foreach (var debug in pe.ReadDebugDirectory().Where(d => d.Type == DebugDirectoryEntryType.EmbeddedPortablePdb))
            {
                using var provider = pe.ReadEmbeddedPortablePdbDebugDirectoryData(debug);
                var reader = provider.GetMetadataReader();
                var pdbText = new StringBuilder();
                foreach (var handle in reader.Documents)
                {
                    pdbText.AppendLine(reader.GetString(reader.GetDocument(handle).Name));
                }

                yield return ($"{entry.FullName} (embedded PDB)", Encoding.UTF8.GetBytes(pdbText.ToString()));
            }
        }
    }

    private static string AttributeName(MetadataReader metadata, CustomAttribute attribute) => attribute.Constructor.Kind switch
    {
        HandleKind.MemberReference => metadata.GetString(metadata.GetTypeReference((TypeReferenceHandle)metadata.GetMemberReference((MemberReferenceHandle)attribute.Constructor).Parent).Name),
        HandleKind.MethodDefinition => metadata.GetString(metadata.GetTypeDefinition(metadata.GetMethodDefinition((MethodDefinitionHandle)attribute.Constructor).GetDeclaringType()).Name),
        _ => string.Empty,
    };

    /// <summary>Decodes the string arguments of an attribute (AssemblyInformationalVersion has one); no other types are needed.</summary>
    private sealed class StringOnlyAttributeDecoder : ICustomAttributeTypeProvider<Type>
    {
        public Type GetPrimitiveType(PrimitiveTypeCode typeCode) => typeCode == PrimitiveTypeCode.String ? typeof(string) : typeof(object);

        public Type GetSystemType() => typeof(Type);

        public Type GetSZArrayType(Type elementType) => elementType.MakeArrayType();

        public Type GetTypeFromDefinition(MetadataReader reader, TypeDefinitionHandle handle, byte rawTypeKind) => typeof(object);

        public Type GetTypeFromReference(MetadataReader reader, TypeReferenceHandle handle, byte rawTypeKind) => typeof(object);

        public Type GetTypeFromSerializedName(string name) => typeof(object);

        public PrimitiveTypeCode GetUnderlyingEnumType(Type type) => PrimitiveTypeCode.Int32;

        public bool IsSystemType(Type type) => type == typeof(Type);
    }

    private static byte[] ReadAll(ZipArchiveEntry entry)
    {
        using var stream = entry.Open();
        using var buffer = new MemoryStream();
        stream.CopyTo(buffer);
        return buffer.ToArray();
    }
}
