using System.IO;
using System.Text.Json;
using System;
using System.Text.Json.Serialization;

namespace CloneCopy.BuildCompare;

/// <summary>Every build and the summary per way, as JSON for tools: the same numbers the Markdown report shows.</summary>
public static class JsonReport
{
    private static readonly JsonSerializerOptions Options = new()
    {
        WriteIndented = true,
        PropertyNamingPolicy = JsonNamingPolicy.CamelCase,
        Converters = { new BuildWayConverter(), new JsonStringEnumConverter(JsonNamingPolicy.CamelCase) },
    };

    public static void Write(ComparisonResult result, string path)
    {
        var document = new
        {
            result.Target,
            result.Root,
            result.Filesystem,
            result.Runs,
            result.BuildArguments,
            result.CloneCopySource,
            result.Started,
            Summary = new { CloneCopy = result.CloneCopy, MSBuildCopy = result.MSBuildCopy, result.Ratio, result.Verdict },
            Outputs = new { Compared = result.ComparedOutputFiles, Same = result.OutputDifferences.Count == 0, Differences = result.OutputDifferences, CacheDifferences = result.CacheDifferences },
            result.Builds,
        };
        File.WriteAllText(path, JsonSerializer.Serialize(document, Options));
    }

    /// <summary>Ways by the names used in log file names ("clonecopy", "msbuild-copy").</summary>
    private sealed class BuildWayConverter : JsonConverter<BuildWay>
    {
        public override BuildWay Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options) =>
            reader.GetString() == BuildWay.CloneCopy.Key() ? BuildWay.CloneCopy : BuildWay.MSBuildCopy;

        public override void Write(Utf8JsonWriter writer, BuildWay value, JsonSerializerOptions options) => writer.WriteStringValue(value.Key());
    }
}
