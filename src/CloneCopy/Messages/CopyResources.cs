using System;
using System.Globalization;
using System.Reflection;
using System.Resources;

namespace CloneCopy;

/// <summary>
/// Where Copy's message texts come from: the running MSBuild's own resources (Microsoft.Build.Tasks.Core,
/// whose satellite assemblies carry the translations the UI culture picks), so CloneCopy's messages read
/// exactly as MSBuild's Copy's in every language; CloneCopy's English copy of them where that assembly
/// cannot be found (a host without MSBuild's task assemblies).
/// </summary>
internal static class CopyResources
{
    /// <summary>MSBuild's tasks prefix their help keywords with this ("MSBuild.Copy.Error").</summary>
    public const string HelpKeywordPrefix = "MSBuild.";

    private const string MSBuildTasksAssembly = "Microsoft.Build.Tasks.Core";
    private const string MSBuildTasksResources = "Microsoft.Build.Tasks.Core.Strings";
    private const string ProbeName = "Copy.FileComment";

    private static readonly Lazy<ResourceManager> Resources = new(Find);

    public static ResourceManager Manager => Resources.Value;

    private static ResourceManager Find()
    {
        try
        {
            // Already loaded in every MSBuild process (its own tasks live there): this only finds it.
            Assembly tasks = Assembly.Load(new AssemblyName(MSBuildTasksAssembly));
            var manager = new ResourceManager(MSBuildTasksResources, tasks);
            if (manager.GetString(ProbeName, CultureInfo.InvariantCulture) is not null)
            {
                return manager;
            }
        }
        catch (Exception e) when (e is System.IO.IOException or BadImageFormatException or MissingManifestResourceException or MissingSatelliteAssemblyException or TypeLoadException or ArgumentException)
        {
            // A host without MSBuild's task assembly: CloneCopy's English copy below.
        }

        return new ResourceManager("CloneCopy.Resources.Strings", typeof(CopyResources).Assembly);
    }
}
