using System;
using System.IO;
using System.IO.Compression;
using CloneCopy.Tests.Infrastructure;
using Xunit;

namespace CloneCopy.Tests.Integration;

/// <summary>
/// Hosts without MSBuild's multithreaded API (MSBuild before 18.3, such as the .NET SDK 10.0.1xx's 18.0, and
/// MSBuild.exe on .NET Framework before it): the package's task assemblies that Sdk.targets gives them load and
/// copy there. tools/OldMSBuildHost is such a host: its Microsoft.Build.Framework is 18.0.2 from NuGet, which has
/// no IMultiThreadableTask. The net10.0 build, which implements that interface, must not load there: that is
/// why Sdk.targets gives it only to MSBuild 18.3 and later, and it shows the host really lacks the API.
/// </summary>
[Collection(BuiltProjectsCollection.Name)]
public sealed class OlderMSBuildTests : IDisposable
{
    private readonly PackedSdk _sdk;
    private readonly string _directory = Directory.CreateTempSubdirectory("clonecopy-oldhost").FullName;

    public OlderMSBuildTests(PackedSdk sdk)
    {
        _sdk = sdk;
        ZipFile.ExtractToDirectory(_sdk.PackagePath, Path.Combine(_directory, "package"));
        File.WriteAllBytes(Path.Combine(_directory, "source.bin"), TestFiles.Content(20_000, 3));
    }

    [Theory]
    [InlineData("net8.0")]
    [InlineData("netstandard2.0")]
    public void The_build_for_older_hosts_loads_and_copies_where_the_multithreaded_API_does_not_exist(string build)
    {
        string destination = Path.Combine(_directory, "out-" + build);

        var (code, output) = RunHost($"tasks/{build}/CloneCopy.dll", destination);

        Assert.Contains("IMultiThreadableTask: absent", output);
        Assert.True(code == 0, output);
        Assert.Contains("Execute: True, WroteAtLeastOneFile: True", output);
        Assert.Equal(File.ReadAllBytes(Path.Combine(_directory, "source.bin")), File.ReadAllBytes(Path.Combine(destination, "source.bin")));
    }

    [Theory]
    [InlineData("17.8.43", "netstandard2.0")]
    [InlineData("17.11.48", "netstandard2.0")]
    [InlineData("18.0.2", "netstandard2.0")]
    [InlineData("18.0.2", "net8.0")]
    public void Each_build_for_older_hosts_follows_the_MSBuild_it_is_loaded_in_by_the_version_of_its_Framework(string framework, string build)
    {
        // MSBuild.exe 17.x/18.x loads the netstandard2.0 build, MSBuild 17.8-18.2 on .NET the net8.0 build: each reads
        // the version of the Microsoft.Build.Framework the host loaded (docs/fidelity.md, "MSBuild's Copy by version").
        string destination = Path.Combine(_directory, $"out-{framework}-{build}");

        var (code, output) = RunHost($"tasks/{build}/CloneCopy.dll", destination, framework);

        Assert.Contains($"Microsoft.Build.Framework {framework}", output);
        Assert.Contains($"CloneCopy reads MSBuild {framework}", output);
        Assert.True(code == 0, output);
        Assert.Equal(File.ReadAllBytes(Path.Combine(_directory, "source.bin")), File.ReadAllBytes(Path.Combine(destination, "source.bin")));
    }

    [Theory]
    [InlineData("net10.0")]
    [InlineData("net10.0/linux-x64")]
    [InlineData("net10.0/dotnet11/linux-x64")]
    public void The_multithreaded_build_does_not_load_there_so_Sdk_targets_keeps_it_from_such_hosts(string build)
    {
        var (code, output) = RunHost($"tasks/{build}/CloneCopy.dll", Path.Combine(_directory, "never"));

        Assert.True(code == 2, output);
        Assert.Contains("load failed: TypeLoadException: Could not load type 'Microsoft.Build.Framework.IMultiThreadableTask'", output);
    }

    [Theory]
    [InlineData("tasks/net10.0/CloneCopy.dll")]
    [InlineData("tasks/net10.0/linux-x64/CloneCopy.dll")]
    [InlineData("tasks/net10.0/win-x64/CloneCopy.dll")]
    [InlineData("tasks/net10.0/dotnet11/linux-x64/CloneCopy.dll")]
    [InlineData("tasks/net10.0/dotnet11/win-x64/CloneCopy.dll")]
    public void The_multithreaded_build_uses_only_the_TaskEnvironment_members_MSBuild_18_3_has(string build)
    {
        // Sdk.targets hands this build to MSBuild 18.3 and later, but TaskEnvironment grew after 18.3 (Fallback and
        // public constructors came with 18.6): a reference to a later member would make Copy fail to construct on
        // 18.3-18.5, every Copy of every build. No 18.3 Microsoft.Build.Framework is served here to load against,
        // so the assembly's member references are read instead.
        string[] in18_3 = { "GetAbsolutePath", "GetEnvironmentVariable", "get_ProjectDirectory" };
        using var stream = File.OpenRead(Path.Combine(_directory, "package", build));
        using var pe = new System.Reflection.PortableExecutable.PEReader(stream);
        var metadata = System.Reflection.Metadata.PEReaderExtensions.GetMetadataReader(pe);
        var used = new System.Collections.Generic.List<string>();
        foreach (var handle in metadata.MemberReferences)
        {
            var member = metadata.GetMemberReference(handle);
            if (member.Parent.Kind == System.Reflection.Metadata.HandleKind.TypeReference
                && metadata.GetString(metadata.GetTypeReference((System.Reflection.Metadata.TypeReferenceHandle)member.Parent).Name) == "TaskEnvironment")
            {
                used.Add(metadata.GetString(member.Name));
            }
        }

        Assert.NotEmpty(used);
        Assert.All(used, name => Assert.Contains(name, in18_3));
    }

    [Theory]
    [InlineData("", "/tasks/net10.0/linux-x64/CloneCopy.dll")]
    [InlineData("-p:_CloneCopyHostHasMultiThreadedApi=false", "/tasks/net8.0/CloneCopy.dll")]
    public void Sdk_targets_gives_the_multithreaded_build_only_to_hosts_that_have_the_API(string verdict, string expected)
    {
        // This SDK's MSBuild (18.9) has the API; an older one is stood in for by overriding the verdict Sdk.targets
        // draws from $(MSBuildVersion), which a build cannot change.
        TestRepository repository = TestRepository.AppWithLibrary(Path.Combine(_directory, "repository"), _sdk);

        var (code, output) = Dotnet.Run($"msbuild App/App.csproj -getProperty:_CloneCopyTaskAssembly {verdict}", repository.Root, repository.NuGetPackages);

        Assert.True(code == 0, output);
        Assert.EndsWith(expected, output.Trim());
    }

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    private (int Code, string Output) RunHost(string taskAssembly, string destination, string framework = "18.0.2")
    {
        // Built beside this test project (its ProjectReferences, one per Framework version), in the same configuration.
        string configuration = new DirectoryInfo(AppContext.BaseDirectory).Parent!.Name;
        string project = Path.Combine(_sdk.RepositoryRoot, "tools", "OldMSBuildHost");
        string host = Path.Combine(framework == "18.0.2" ? project : Path.Combine(project, "Framework" + framework), "bin", configuration, "net10.0", "OldMSBuildHost.dll");
        Assert.True(File.Exists(host), $"{host} is missing: build tools/OldMSBuildHost");
        string assembly = Path.Combine(_directory, "package", taskAssembly);
        return ProcessRunner.Run("dotnet", $"\"{host}\" \"{assembly}\" \"{Path.Combine(_directory, "source.bin")}\" \"{destination}\"", _directory);
    }
}
