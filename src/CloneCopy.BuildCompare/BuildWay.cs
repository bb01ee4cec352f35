namespace CloneCopy.BuildCompare;

/// <summary>The two ways every build is made: with CloneCopy's Copy task, and with MSBuild's own.</summary>
public enum BuildWay
{
    CloneCopy,
    MSBuildCopy,
}

public static class BuildWayNames
{
    /// <summary>The name used in file names and JSON ("clonecopy", "msbuild-copy").</summary>
    public static string Key(this BuildWay way) => way == BuildWay.CloneCopy ? "clonecopy" : "msbuild-copy";

    /// <summary>The name shown to people.</summary>
    public static string Title(this BuildWay way) => way == BuildWay.CloneCopy ? "CloneCopy" : "MSBuild's Copy";
}
