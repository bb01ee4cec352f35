using System;
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

    private static readonly Lazy<ResourceManager> Resources = new(Find);

    public static ResourceManager Manager => Resources.Value;

    private static ResourceManager Find()
    {
        try
        {
            // Already loaded in every MSBuild process (its own tasks live there): this only finds it.
            // Only the manifest is asked whether the strings are there: reading one would load the resource set now,
            // in the first Copy call of a node, though a build at minimal verbosity may never format a message of Copy's.
            Assembly tasks = Assembly.Load(new AssemblyName(MSBuildTasksAssembly));
            if (tasks.GetManifestResourceInfo(MSBuildTasksResources + ".resources") is not null)
            {
                return new ResourceManager(MSBuildTasksResources, tasks);
            }
        }
        catch (Exception e) when (e is System.IO.IOException or BadImageFormatException or MissingManifestResourceException or MissingSatelliteAssemblyException or TypeLoadException or ArgumentException)
        {
            // A host without MSBuild's task assembly: CloneCopy's English copy below.
        }

        return new ResourceManager("CloneCopy.Resources.Strings", typeof(CopyResources).Assembly);
    }
}
